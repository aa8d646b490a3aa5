// Runs the pinned pnpm (package.json "packageManager") through npx, so a
// machine with only Node and npm needs nothing installed by hand.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const { packageManager } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

/** The command line that runs the pinned pnpm. */
export const pnpmCommand = ['npx', '--yes', packageManager];

/** Runs `pnpm <args>`; exits the process with pnpm's code when it fails. */
export function pnpm(args, opts = {}) {
  const result = spawnSync(pnpmCommand[0], [...pnpmCommand.slice(1), ...args], { stdio: 'inherit', ...opts });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
