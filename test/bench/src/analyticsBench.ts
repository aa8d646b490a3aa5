import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseBenchArgs } from './BenchOptions.js';
import { renderReport } from './renderReport.js';
import { runBench } from './runBench.js';
import { scalingBench } from './scalingBench.js';

/** Markers around the generated part of bench/README.md; the text outside them is kept. */
export const RESULTS_START = '<!-- bench:results:start -->';
export const RESULTS_END = '<!-- bench:results:end -->';

function writeIntoReadme(path: string, section: string): void {
  const text = existsSync(path) ? readFileSync(path, 'utf8') : `# Benchmarks\n\n${RESULTS_START}\n${RESULTS_END}\n`;
  const start = text.indexOf(RESULTS_START);
  const end = text.indexOf(RESULTS_END);
  if (start < 0 || end < start) throw new Error(`${path} lacks the ${RESULTS_START} … ${RESULTS_END} markers`);
  writeFileSync(path, `${text.slice(0, start + RESULTS_START.length)}\n${section}\n${text.slice(end)}`);
}

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const args = process.argv.slice(2);
async function fullBench(): Promise<void> {
  const opts = parseBenchArgs(args, repoRoot);
  const command = args.length === 0 ? 'npm run bench' : `npm run bench -- ${args.join(' ')}`;
  const report = await runBench({
    ...opts,
    command,
    log: (line) => console.error(`[bench ${new Date().toISOString().slice(11, 19)}] ${line}`),
  });
  const section = renderReport(report);
  console.log(section);
  writeFileSync(join(opts.dataDir, 'last-report.json'), JSON.stringify(report, null, 2));
  if (opts.readmePath !== undefined) {
    writeIntoReadme(opts.readmePath, section);
    console.error(`[bench] results written into ${opts.readmePath}`);
  }
  if (report.results.some((r) => r.error !== undefined)) process.exitCode = 1;
}

try {
  // --scaling: the overview queries at several sizes, live and merged (scalingBench.ts)
  if (args[0] === '--scaling') await scalingBench(args.slice(1), `npm run bench -- ${args.join(' ')}`);
  else await fullBench();
} catch (err) {
  console.error(err instanceof RangeError ? err.message : err);
  process.exitCode = 2;
}
