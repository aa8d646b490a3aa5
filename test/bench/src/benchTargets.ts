import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (test/bench/{src,dist}/ → ../../..). */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** Flags that say where results go, not what is measured; the first two take a value. */
const OUTPUT_FLAGS_WITH_VALUE = ['--json', '--readme'];
const OUTPUT_FLAGS = [...OUTPUT_FLAGS_WITH_VALUE, '--no-readme'];

/**
 * The command a bench records — `npm run <script>` with its measuring flags,
 * the output flags left out, since where results go does not change them —
 * and the README it writes into: `readme` when given, none after
 * `--no-readme` (null), else bench/README.md for a full run (no measuring flags).
 */
export function benchTargets(
  script: string,
  args: readonly string[],
  readme: string | null | undefined,
): { command: string; readmePath: string | undefined } {
  const measured = args.filter(
    (a, i) => !OUTPUT_FLAGS.includes(a) && !OUTPUT_FLAGS_WITH_VALUE.includes(args[i - 1] ?? ''),
  );
  const command = measured.length === 0 ? `npm run ${script}` : `npm run ${script} -- ${measured.join(' ')}`;
  const readmePath =
    readme === null
      ? undefined
      : (readme ?? (measured.length === 0 ? join(REPO_ROOT, 'bench', 'README.md') : undefined));
  return { command, readmePath };
}
