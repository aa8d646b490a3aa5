import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_SEED } from './BenchOptions.js';
import { renderScaling } from './renderScaling.js';
import { runScaling } from './runScaling.js';

const USAGE = `usage: npm run bench -- --scaling [RUNS,RUNS,…] [--iterations N] [--seed N]
  RUNS: runs of the bench preset per size (≈ 100 spans each, the largest project holding ≈ 55%;
        default 18300,55000,183000 ≈ 1M, 3M, 10M spans of the measured project)`;

/** `npm run bench -- --scaling …`: the overview queries at several data sizes, live and merged. */
export async function scalingBench(argv: readonly string[], command: string): Promise<void> {
  let sizes = [18_300, 55_000, 183_000];
  let iterations = 3;
  let seed = DEFAULT_SEED;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const next = (): number => {
      const v = Number(argv[++i]);
      if (!Number.isInteger(v) || v < 1) throw new RangeError(`${arg} needs a whole number ≥ 1\n${USAGE}`);
      return v;
    };
    if (arg === '--iterations') iterations = next();
    else if (arg === '--seed') seed = next();
    else if (/^\d+(,\d+)*$/.test(arg)) sizes = arg.split(',').map(Number);
    else throw new RangeError(`unknown argument ${arg}\n${USAGE}`);
  }
  const report = await runScaling({
    sizes,
    seed,
    iterations,
    runsPerInsert: 500,
    command,
    log: (line) => console.error(`[scaling ${new Date().toISOString().slice(11, 19)}] ${line}`),
  });
  const path = join(tmpdir(), 'telltale-scaling-report.json');
  writeFileSync(path, JSON.stringify(report, null, 2));
  console.log(renderScaling(report));
  console.error(`[scaling] report in ${path}`);
}
