import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { benchTargets } from './benchTargets.js';
import { compareContent } from './compareContent.js';
import { renderContentComparison } from './renderContentComparison.js';
import { renderIngestReport } from './renderIngestReport.js';
import { runIngestRounds } from './ingestRounds.js';
import { ingestBenchOptions, type IngestBenchOptions } from './runIngestBench.js';

/** Markers around the generated part of bench/README.md's ingest section; the text outside them is kept. */
export const INGEST_START = '<!-- bench:ingest:start -->';
export const INGEST_END = '<!-- bench:ingest:end -->';
/** Markers around the generated part of the "Ingest with content" section (--compare-content). */
export const CONTENT_START = '<!-- bench:ingest-content:start -->';
export const CONTENT_END = '<!-- bench:ingest-content:end -->';

const USAGE = `usage: node test/bench/dist/ingestBench.js [options]   (npm run bench:ingest -- [options])
  --rounds N           rounds against a fresh server each; the median is reported (default 3; --smoke: 1)
  --seconds N          timed window (default 120, long enough for the run-facts finaliser and merges; --smoke: 2)
  --warmup N           warm-up seconds (default 5; --smoke: 1)
  --concurrency N      requests in flight (default 48; --smoke: 8)
  --offered-rate N     open loop: requests arrive at N spans/s on average (Poisson), whatever the answers, and
                       latency counts from each arrival; without it, closed loop (--concurrency in flight)
  --latency-share F    after the closed-loop rounds, one open-loop round (≤ 60 s) offered F × the median
                       sustained rate, whose latency the targets judge (default 0.8; 0: none; --smoke: 0)
  --templates N        distinct template requests made with the OTel SDK (default 64)
  --content-bytes N    ~N bytes of content (gen_ai.input.messages + gen_ai.output.messages) on every llm span (default 0)
  --compare-content N  alternate lean rounds and rounds with --content-bytes N, --rounds of each, no ceiling;
                       reports each mode's median sustained rate and their ratio (--readme PATH writes it there)
  --ingest-workers N   the server's --ingest-workers (default: the server's default)
  --ceiling-rows N     rows the plain-insert ceiling inserts (default 1,000,000; --smoke: 20,000; 0: skip it)
  --server-arg A       an extra \`telltale start\` argument (repeatable; e.g. --server-arg --max-body-bytes --server-arg 68719476736)
  --server-node-arg A  a node flag for the server process (repeatable; e.g. --cpu-prof)
  --smoke              a few seconds, small: checks the bench works and nothing is lost
  --keep-data          keep the server's data directory
  --json PATH          also write the report as JSON (full runs: bench/results/ingest.json)
  --readme PATH        write the results into PATH (full default runs write bench/README.md)
  --no-readme          print only`;

function writeIntoReadme(path: string, section: string, startMarker = INGEST_START, endMarker = INGEST_END): void {
  const text = existsSync(path) ? readFileSync(path, 'utf8') : '# Benchmarks\n';
  const start = text.indexOf(startMarker);
  const end = text.indexOf(endMarker);
  if (start < 0 || end < start)
    throw new Error(`${path} lacks the ${startMarker} … ${endMarker} markers (see its "Ingest throughput" section)`);
  writeFileSync(path, `${text.slice(0, start + startMarker.length)}\n${section}\n${text.slice(end)}`);
}

function parseArgs(argv: readonly string[]): {
  opts: Partial<IngestBenchOptions>;
  readme: string | null | undefined;
  json: string | undefined;
  compareContent: number | undefined;
} {
  const opts: Partial<IngestBenchOptions> & { serverNodeArgs: string[]; serverArgs: string[] } = {
    serverNodeArgs: [],
    serverArgs: [],
  };
  let readme: string | null | undefined;
  let json: string | undefined;
  let compare: number | undefined;
  const num = (i: number, name: string): number => {
    const v = Number(argv[i + 1]);
    if (!Number.isFinite(v) || v < 0) throw new RangeError(`${name} needs a number ≥ 0\n${USAGE}`);
    return v;
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    switch (arg) {
      case '--rounds':
        opts.rounds = Math.max(1, num(i++, arg));
        break;
      case '--seconds':
        opts.seconds = num(i++, arg);
        break;
      case '--warmup':
        opts.warmupSeconds = num(i++, arg);
        break;
      case '--concurrency':
        opts.concurrency = Math.max(1, num(i++, arg));
        break;
      case '--offered-rate':
        opts.offeredSpansPerS = Math.max(1, num(i++, arg));
        break;
      case '--latency-share':
        opts.latencyShare = num(i++, arg);
        break;
      case '--templates':
        opts.templates = Math.max(1, num(i++, arg));
        break;
      case '--content-bytes':
        opts.contentBytes = num(i++, arg);
        break;
      case '--compare-content':
        compare = Math.max(1, num(i++, arg));
        break;
      case '--ingest-workers':
        opts.ingestWorkers = num(i++, arg);
        break;
      case '--ceiling-rows':
        opts.ceilingRows = num(i++, arg);
        break;
      case '--server-node-arg':
        opts.serverNodeArgs.push(argv[++i] ?? '');
        break;
      case '--server-arg':
        opts.serverArgs.push(argv[++i] ?? '');
        break;
      case '--smoke':
        opts.smoke = true;
        break;
      case '--keep-data':
        opts.keepData = true;
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
  return { opts, readme, json, compareContent: compare };
}

const args = process.argv.slice(2);
try {
  const { opts, readme, json, compareContent: compareBytes } = parseArgs(args);
  const { command, readmePath } = benchTargets('bench:ingest', args, readme);
  const options = {
    ...ingestBenchOptions({
      ...opts,
      log: (line) => console.error(`[bench:ingest ${new Date().toISOString().slice(11, 19)}] ${line}`),
    }),
    command,
  };
  if (compareBytes !== undefined) {
    const comparison = await compareContent(options, compareBytes);
    const section = renderContentComparison(comparison);
    console.log(section);
    if (json !== undefined) writeFileSync(json, `${JSON.stringify(comparison, null, 2)}\n`);
    // a comparison writes only where asked (--readme), into its own section
    if (readme !== undefined && readme !== null) {
      writeIntoReadme(readme, section, CONTENT_START, CONTENT_END);
      console.error(`[bench:ingest] comparison written into ${readme}`);
    }
    if (!comparison.correct) process.exitCode = 1;
  } else {
    const report = await runIngestRounds(options);
    const section = renderIngestReport(report);
    console.log(section);
    // a full run also leaves its figures for the capacity model (npm run capacity, docs/scaling.md)
    const jsonPath =
      json ?? (readmePath === undefined ? undefined : join(dirname(readmePath), 'results', 'ingest.json'));
    if (jsonPath !== undefined) writeFileSync(jsonPath, `${JSON.stringify(report, null, 2)}\n`);
    if (readmePath !== undefined) {
      writeIntoReadme(readmePath, section);
      console.error(`[bench:ingest] results written into ${readmePath}`);
    }
    if (!report.correct) process.exitCode = 1;
  }
} catch (err) {
  console.error(err instanceof RangeError ? err.message : err);
  process.exitCode = 2;
}
