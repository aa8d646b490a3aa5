import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchTargets } from './benchTargets.js';
import { renderDashboardReport } from './renderDashboardReport.js';
import { dashboardBenchOptions, runDashboardBench, type DashboardBenchOptions } from './runDashboardBench.js';

/** Markers around the generated part of bench/README.md's dashboard section; the text outside them is kept. */
export const DASHBOARD_START = '<!-- bench:dashboard:start -->';
export const DASHBOARD_END = '<!-- bench:dashboard:end -->';

const USAGE = `usage: node test/bench/dist/dashboardBench.js [options]   (npm run bench:dashboard -- [options])
  --navigations N   measured cold navigations per page after one warm-up (default 5; --smoke: 1)
  --runs N          runs of the bench preset (default 100,000 ≈ 10M spans; --smoke: 2,000)
  --seed N          dataset seed (default 7777)
  --data-dir PATH   chDB data directory (default $TMPDIR/telltale-bench-<runs>r-s<seed>, shared with npm run bench; reused once loaded)
  --fresh           load again even if the data directory holds this dataset
  --only NAME       only pages whose name contains NAME (repeatable; e.g. --only overview)
  --timeout-ms N    a navigation without all its data after this long is a timeout (default 60,000)
  --max-load X      wait while the 1-min load average exceeds X (default 1.5, up to 5 min)
  --smoke           2,000 runs, 1 navigation per page, no waiting: checks the bench works
  --json PATH       also write the report as JSON
  --readme PATH     write the results into PATH (full default runs write bench/README.md)
  --no-readme       print only`;

function writeIntoReadme(path: string, section: string): void {
  const text = existsSync(path) ? readFileSync(path, 'utf8') : '# Benchmarks\n';
  const start = text.indexOf(DASHBOARD_START);
  const end = text.indexOf(DASHBOARD_END);
  if (start < 0 || end < start)
    throw new Error(`${path} lacks the ${DASHBOARD_START} … ${DASHBOARD_END} markers (see its "Dashboard" section)`);
  writeFileSync(path, `${text.slice(0, start + DASHBOARD_START.length)}\n${section}\n${text.slice(end)}`);
}

function parseArgs(argv: readonly string[]): {
  opts: Partial<DashboardBenchOptions> & { smoke?: boolean };
  readme: string | null | undefined;
  json: string | undefined;
} {
  const opts: Partial<DashboardBenchOptions> & { smoke?: boolean; only: string[] } = { only: [] };
  let readme: string | null | undefined;
  let json: string | undefined;
  const num = (i: number, name: string): number => {
    const v = Number(argv[i + 1]);
    if (!Number.isFinite(v) || v < 0) throw new RangeError(`${name} needs a number ≥ 0\n${USAGE}`);
    return v;
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    switch (arg) {
      case '--navigations':
        opts.navigations = Math.max(1, num(i++, arg));
        break;
      case '--runs':
        opts.runs = Math.max(1, num(i++, arg));
        break;
      case '--seed':
        opts.seed = num(i++, arg);
        break;
      case '--data-dir':
        opts.dataDir = argv[++i];
        break;
      case '--fresh':
        opts.fresh = true;
        break;
      case '--only':
        opts.only.push(argv[++i] ?? '');
        break;
      case '--timeout-ms':
        opts.timeoutMs = num(i++, arg);
        break;
      case '--max-load':
        opts.maxLoadAverage = num(i++, arg);
        break;
      case '--smoke':
        opts.smoke = true;
        break;
      case '--json':
        json = argv[++i];
        break;
      case '--readme':
        readme = argv[++i];
        break;
      case '--no-readme':
        readme = null;
        break;
      case '--help':
        throw new RangeError(USAGE);
      default:
        throw new RangeError(`unknown argument ${arg}\n${USAGE}`);
    }
  }
  return { opts, readme, json };
}

const args = process.argv.slice(2);
try {
  const { opts, readme, json } = parseArgs(args);
  const { command, readmePath } = benchTargets('bench:dashboard', args, readme);
  const options = dashboardBenchOptions({
    ...opts,
    log: (line) => console.error(`[bench:dashboard ${new Date().toISOString().slice(11, 19)}] ${line}`),
  });
  const report = await runDashboardBench({ ...options, command });
  const section = renderDashboardReport(report);
  console.log(section);
  writeFileSync(join(options.dataDir, 'last-dashboard-report.json'), JSON.stringify(report, null, 2));
  if (json !== undefined) writeFileSync(json, JSON.stringify(report, null, 2));
  if (readmePath !== undefined) {
    writeIntoReadme(readmePath, section);
    console.error(`[bench:dashboard] results written into ${readmePath}`);
  }
  if (report.pages.some((p) => p.timeouts > 0)) process.exitCode = 1;
} catch (err) {
  console.error(err instanceof RangeError ? err.message : err);
  process.exitCode = 2;
}
