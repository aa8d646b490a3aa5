import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_DRAIN_BATCH_SPANS, processExport } from '@telltale/collector';
import { agentPayloads, SPANS_PER_REQUEST } from './agentPayloads.js';
import type { CeilingResult, VerifyResult } from './ingestStoreChild.js';
import { median, nearestRank } from './measure.js';
import { PayloadPool } from './PayloadPool.js';
import { ProcessSampler, spoolBacklogBytes, threadCpu } from './ProcessSampler.js';
import { runLoad, type LoadResult } from './runLoad.js';
import { ServerProcess } from './ServerProcess.js';
import { scrapeOtlpStages, stageMeansMs, type StageTotals } from './otlpStages.js';
import { EngineMemorySampler } from './engineMemorySampler.js';
import { scrapeRunFactsPaths, type RunFactsPaths } from './runFactsPaths.js';

const REPO_ROOT = resolve(fileURLToPath(new URL('../../..', import.meta.url)));
export const SERVER_CLI = join(REPO_ROOT, 'apps/server/dist/cli.js');
/** The compiled child (vitest runs this file from src, the child always runs from dist: build first). */
export const STORE_CHILD = join(REPO_ROOT, 'test/bench/dist/ingestStoreChild.js');

export interface IngestBenchOptions {
  warmupSeconds: number;
  seconds: number;
  /** Requests in flight (closed loop). */
  concurrency: number;
  /** Open loop at this offered rate (spans/s) instead of `concurrency` requests in flight; undefined: closed loop. */
  offeredSpansPerS: number | undefined;
  /** Distinct template requests generated with the OTel SDK (each send rewrites its ids). */
  templates: number;
  seed: number;
  /** Bytes of content (`gen_ai.input.messages` + `gen_ai.output.messages`) on every llm span; 0: none. */
  contentBytes: number;
  /** The server's --ingest-workers; undefined: its default. */
  ingestWorkers: number | undefined;
  /** Extra `telltale start` arguments. */
  serverArgs: string[];
  /** Extra node flags for the server process (e.g. --cpu-prof). */
  serverNodeArgs: string[];
  /** Rows the ceiling inserts, in batches of `batchRows` (the drainer's default batch). */
  ceilingRows: number;
  batchRows: number;
  smoke: boolean;
  /** Rounds, each against a fresh server; the median one is reported (runIngestRounds). */
  rounds: number;
  /** Keep the server's data directory (and print where it is). */
  keepData: boolean;
  /**
   * After closed-loop rounds, one open-loop round offered this share of the
   * median round's sustained rate, for the acknowledgement latency (0: none).
   */
  latencyShare: number;
  log: (line: string) => void;
}

export function ingestBenchOptions(partial: Partial<IngestBenchOptions> = {}): IngestBenchOptions {
  const smoke = partial.smoke ?? false;
  return {
    warmupSeconds: smoke ? 1 : 5,
    // long enough for the steady state: the run-facts finaliser (deferred ≤ 30 s while the spool is
    // behind) and the merges of a growing table run inside the window (2026-11-26: 68–84k spans/s
    // sustained in 20–30 s windows, 57.7–59.1k over 120 s)
    seconds: smoke ? 2 : 120,
    concurrency: smoke ? 8 : 48,
    offeredSpansPerS: undefined,
    templates: smoke ? 8 : 64,
    seed: 4,
    contentBytes: 0,
    ingestWorkers: undefined,
    serverNodeArgs: [],
    serverArgs: [],
    ceilingRows: smoke ? 20_000 : 1_000_000,
    batchRows: smoke ? 20_000 : DEFAULT_DRAIN_BATCH_SPANS,
    rounds: smoke ? 1 : 3,
    keepData: false,
    latencyShare: smoke ? 0 : 0.8,
    log: () => undefined,
    ...partial,
    smoke,
  };
}

/** What one round measured, for the report's list of rounds. */
export interface RoundSummary {
  sustainedSpansPerS: number;
  ackedSpansPerS: number;
  storedSpansPerS: number;
  serverCpuUsPerSpan: number;
  peakRssMiB: number;
  correct: boolean;
}

/** The open-loop latency round: what was offered, what was acknowledged, and how fast. */
export interface OpenLoopSummary {
  share: number;
  offeredSpansPerS: number;
  ackedSpansPerS: number;
  latencyMs: { p50: number; p99: number; max: number };
  stagesMs: IngestReport['stagesMs'];
  peakRssMiB: number;
  correct: boolean;
}

export interface Target {
  name: string;
  value: string;
  target: string;
  met: boolean;
}

export interface IngestReport {
  measuredAt: string;
  command: string;
  options: Omit<IngestBenchOptions, 'log'>;
  machine: { nproc: number; cpuModel: string; memoryGiB: number; node: string; clickhouse: string };
  loadAverage: { before: number; after: number };
  payload: {
    spansPerRequest: number;
    runsPerRequest: number;
    bodyBytes: number;
    templates: number;
    generateS: number;
    /** Content bytes asked per llm span, and the llm spans (with content) per request. */
    contentBytes: number;
    contentSpansPerRequest: number;
    /** Spool payload bytes per span (the ingest worker's encoding of these requests, content included). */
    spoolBytesPerSpan: number;
  };
  load: Omit<LoadResult, 'windowLatenciesMs'>;
  ackedSpansPerS: number;
  latencyMs: { p50: number; p99: number; max: number };
  /** Mean ms per accepted request in each server-side stage during the window (the server's stage histogram). */
  stagesMs: { stage: string; meanMs: number; requests: number }[];
  server: {
    peakRssMiB: number;
    /** The highest anonymous and file-backed parts of the RSS sampled (ProcessSampler). */
    peakAnonMiB: number;
    peakFileMiB: number;
    /** The highest figures of the embedded engine's allocator scraped from /metrics every second (absent: none scraped). */
    engine?: { peakAllocatedMiB: number; peakResidentMiB: number; samples: number } | undefined;
    /** Cores used during the window (CPU seconds / window seconds), and per thread group. */
    cpuCores: number;
    threadCores: { thread: string; cores: number }[];
    /** Spool backlog (bytes not yet in the store) at the window's start, peak during it, and at its end. */
    backlogBytes: { start: number; peak: number; end: number };
    exitCode: number | null;
    shutdownMs: number;
  };
  /** From the last acknowledgement until the spool was drained (everything acknowledged in the store). */
  catchUpMs: number;
  /** Spans/s the drainer stored during the window (acknowledged minus backlog growth, converted at the spool's bytes per span). */
  windowDrainSpansPerS: number;
  /** The lower of the acknowledged and the stored rate in the window: what the server keeps up with. */
  sustainedSpansPerS: number;
  /** Seconds from the start of the load to the first 503 (spool full or body budget), if any. */
  first503S: number | undefined;
  /** Spans/s the drainer stored while catching up (backlog at the last ack / catch-up time). */
  catchUpSpansPerS: number;
  /** Runs whose facts the server had written when the spool was drained, by path (the stop finalises the rest). */
  runFactsAtCatchUp: RunFactsPaths | undefined;
  clientCores: number;
  stored: VerifyResult;
  correct: boolean;
  /** Undefined with ceilingRows 0 (profile runs). */
  ceiling: CeilingResult | undefined;
  /** Every round's rates when several were run (runIngestRounds); this report is the median one. */
  rounds?: RoundSummary[];
  /** The open-loop round at `latencyShare` of the sustained rate (runIngestRounds), whose latency the targets judge. */
  openLoop?: OpenLoopSummary;
  ratio: number;
  targets: Target[];
}

/** The ingest targets, judged on a report (again after a ceiling from another round is attached). */
export function ingestTargets(r: IngestReport): Target[] {
  const { sustainedSpansPerS, ceiling, ratio, stored, load, correct } = r;
  // memory must stay under the bar in every round, not only the median one
  const peakRssMiB = Math.max(
    r.server.peakRssMiB,
    ...(r.rounds ?? []).map((x) => x.peakRssMiB),
    r.openLoop?.peakRssMiB ?? 0,
  );
  return [
    {
      name: 'sustained spans/s (acknowledged and stored in the window)',
      value: Math.round(sustainedSpansPerS).toLocaleString('en-US'),
      target: '≥ 100,000',
      met: sustainedSpansPerS >= 100_000,
    },
    ...(ceiling === undefined ? [] : ceilingTargets(ceiling, ratio)),
    ...latencyTargets(r),
    {
      name: 'server peak RSS (highest round)',
      value: `${peakRssMiB.toFixed(0)} MiB`,
      target: '< 1 GiB',
      met: peakRssMiB < 1024,
    },
    {
      name: 'stored = acknowledged, no duplicates',
      value: `${stored.count.toLocaleString('en-US')} / ${load.ackedSpans.toLocaleString('en-US')}, ${stored.unique.toLocaleString('en-US')} distinct`,
      target: 'equal',
      met: correct,
    },
  ];
}

/** Per-span CPU of the collector and of the run facts as multiples of the engine's insert, same run. */
function ceilingTargets(c: CeilingResult, ratio: number): Target[] {
  const insertUs = c.insertCpuS / c.rows;
  const collector = c.decode.fusedS / c.decode.spans / insertUs;
  const facts = (c.workerFacts.computeCpuS + c.workerFacts.writeCpuS) / c.rows / insertUs;
  return [
    {
      name: 'share of the plain chDB insert ceiling',
      value: `${(ratio * 100).toFixed(0)}%`,
      target: '≥ 60%',
      met: ratio >= 0.6,
    },
    {
      name: "collector CPU per span on one thread (body to spool bytes) / the insert's",
      value: `${collector.toFixed(2)}×`,
      target: '≤ 0.8×',
      met: collector <= 0.8,
    },
    {
      name: "run-facts CPU per span (worker facts: computed, checked, written) / the insert's",
      value: `${facts.toFixed(2)}×`,
      target: '≤ 0.3×',
      met: facts <= 0.3,
    },
  ];
}

/**
 * Acknowledgement latency. Under a closed loop it is the in-flight count over
 * the rate (Little's law), so when an open-loop round ran, its latency is
 * judged; the load shape is named either way.
 */
function latencyTargets(r: IngestReport): Target[] {
  const open = r.openLoop;
  const shape =
    open !== undefined
      ? `open loop, ${int(open.offeredSpansPerS)} spans/s offered = ${(open.share * 100).toFixed(0)}% of the sustained rate`
      : r.options.offeredSpansPerS === undefined
        ? `closed loop, ${r.options.concurrency} in flight`
        : `open loop, ${int(r.options.offeredSpansPerS)} spans/s offered`;
  const latency = open?.latencyMs ?? r.latencyMs;
  return [
    {
      name: `acknowledgement p50 (${shape})`,
      value: `${latency.p50.toFixed(0)} ms`,
      target: '≤ 50 ms',
      met: latency.p50 <= 50,
    },
    {
      name: `acknowledgement p99 (${shape})`,
      value: `${latency.p99.toFixed(0)} ms`,
      target: '≤ 250 ms',
      met: latency.p99 <= 250,
    },
  ];
}

const int = (n: number): string => Math.round(n).toLocaleString('en-US');

function runChild<T>(args: string[]): Promise<T> {
  return new Promise((resolvePromise, reject) => {
    execFile(process.execPath, [STORE_CHILD, ...args], { maxBuffer: 16 * 1024 ** 2 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${STORE_CHILD} ${args[0]} failed: ${err.message}\n${stderr}`));
      else resolvePromise(JSON.parse(stdout.trim().split('\n').pop() ?? '') as T);
    });
  });
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** The ingest benchmark (see bench/README.md, "Ingest throughput"). */
export async function runIngestBench(opts: IngestBenchOptions & { command: string }): Promise<IngestReport> {
  const { log } = opts;
  const work = mkdtempSync(join(tmpdir(), 'telltale-ingest-bench-'));
  const dataDir = join(work, 'server');
  const loadBefore = loadavg()[0] ?? 0;
  let stopServer = (): Promise<unknown> => Promise.resolve();
  try {
    let t = performance.now();
    const templates = agentPayloads({ templates: opts.templates, seed: opts.seed, contentBytes: opts.contentBytes });
    const generateS = (performance.now() - t) / 1000;
    const pool = new PayloadPool(templates);
    const poolFile = join(work, 'pool.json');
    pool.save(poolFile);
    const bodyBytes = median(templates.map((x) => x.body.length).sort((a, b) => a - b));
    const runsPerRequest = templates.reduce((n, x) => n + x.runs, 0) / templates.length;
    const contentSpansPerRequest = templates.reduce((n, x) => n + x.contentSpans, 0) / templates.length;
    // what the spool holds per span: the ingest worker's parts for these requests (span and content batches)
    const encoded = templates.map((x) =>
      processExport({ body: x.body, encoding: 'proto', projectId: 'default', nowMs: Date.now() }, undefined),
    );
    const measuredSpoolBytesPerSpan =
      encoded.reduce((n, e) => n + e.parts.reduce((m, p) => m + p.byteLength, 0), 0) /
      encoded.reduce((n, e) => n + e.spanCount, 0);
    log(
      `${templates.length} template requests of ${SPANS_PER_REQUEST} spans (${(bodyBytes / 1024).toFixed(0)} KiB, ${runsPerRequest.toFixed(1)} runs each${opts.contentBytes > 0 ? `, ${contentSpansPerRequest.toFixed(1)} llm spans with ~${opts.contentBytes} bytes of content each` : ''}) in ${generateS.toFixed(1)} s`,
    );

    const serverArgs = [
      '--data-dir',
      dataDir,
      '--log-level',
      'warn',
      ...(opts.ingestWorkers === undefined ? [] : ['--ingest-workers', String(opts.ingestWorkers)]),
      ...opts.serverArgs,
    ];
    const server = await ServerProcess.start(SERVER_CLI, serverArgs, opts.serverNodeArgs);
    stopServer = () => server.stop();
    log(`server pid ${server.pid} at ${server.url} (${serverArgs.join(' ')})`);
    const spoolDir = join(dataDir, 'spool');
    const sampler = new ProcessSampler(server.pid, spoolDir, 100);
    const engineSampler = new EngineMemorySampler(server.url, 1000);
    // whatever happens next, the samplers stop with the server (their timers would keep the bench alive)
    stopServer = async () => {
      sampler.stop();
      await engineSampler.stop();
      return server.stop();
    };
    let cpuStart = 0;
    let cpuEnd = 0;
    let threadsStart = new Map<string, number>();
    let threadsEnd = new Map<string, number>();
    let windowStartAt = 0;
    let windowEndAt = 0;
    const noStages = (): Promise<Map<string, StageTotals>> => Promise.resolve(new Map<string, StageTotals>());
    let stagesStart = noStages();
    let stagesEnd = noStages();
    const load = await runLoad({
      url: server.url,
      pool,
      concurrency: opts.concurrency,
      offeredSpansPerS: opts.offeredSpansPerS,
      warmupMs: opts.warmupSeconds * 1000,
      windowMs: opts.seconds * 1000,
      log,
      onWindow: (edge, at) => {
        if (edge === 'start') {
          windowStartAt = at;
          cpuStart = sampler.cpuNow();
          threadsStart = threadCpu(server.pid);
          stagesStart = scrapeOtlpStages(server.url).catch(noStages);
          log(`warm-up done; timing ${opts.seconds} s`);
        } else {
          windowEndAt = at;
          cpuEnd = sampler.cpuNow();
          threadsEnd = threadCpu(server.pid);
          stagesEnd = scrapeOtlpStages(server.url).catch(noStages);
        }
      },
    });
    const windowS = (windowEndAt - windowStartAt) / 1000;
    const stagesMs = stageMeansMs(await stagesStart, await stagesEnd);
    log(
      `acknowledged ${load.ackedSpans.toLocaleString('en-US')} spans (${load.windowAckedSpans.toLocaleString('en-US')} in the window); 503s ${load.retries503}; failures ${JSON.stringify(load.otherFailures)}`,
    );

    // catch-up: until the spool holds nothing undrained
    const backlogAtLastAck = Math.max(
      spoolBacklogBytes(spoolDir),
      ...sampler.samples
        .filter((x) => x.atMs >= load.lastAckMs - 100 && x.atMs <= load.lastAckMs + 100)
        .map((x) => x.spoolBacklogBytes),
    );
    const catchUpDeadline = performance.now() + 10 * 60_000;
    while (spoolBacklogBytes(spoolDir) > 0 && performance.now() < catchUpDeadline) await sleep(20);
    // the first sample (every 100 ms) at or after the last ack that saw an empty backlog; else now
    const drainedAt =
      sampler.samples.find((x) => x.atMs >= load.lastAckMs && x.spoolBacklogBytes === 0)?.atMs ?? performance.now();
    const catchUpMs = Math.max(0, drainedAt - load.lastAckMs);
    log(
      `drained ${(backlogAtLastAck / 2 ** 20).toFixed(1)} MiB of backlog ${catchUpMs.toFixed(0)} ms after the last ack`,
    );

    const runFactsAtCatchUp = await scrapeRunFactsPaths(server.url).catch(() => undefined);
    await engineSampler.stop();
    t = performance.now();
    const exitCode = await server.stop();
    const shutdownMs = performance.now() - t;
    sampler.stop();
    const warnings = server.logs.filter((l) => l.includes('"level":40') || l.includes('"level":50'));
    if (warnings.length > 0) log(`server warnings/errors (${warnings.length}):\n${warnings.slice(0, 5).join('\n')}`);
    if (exitCode !== 0) log(`server exited with ${exitCode}:\n${server.logs.slice(-20).join('\n')}`);

    const windowSamples = sampler.samples.filter((s) => s.atMs >= windowStartAt && s.atMs <= windowEndAt);
    const backlog = {
      start: windowSamples[0]?.spoolBacklogBytes ?? 0,
      peak: Math.max(0, ...windowSamples.map((s) => s.spoolBacklogBytes)),
      end: windowSamples.at(-1)?.spoolBacklogBytes ?? 0,
    };

    log('counting what the server stored');
    const stored = await runChild<VerifyResult>(['verify', dataDir]);
    log(
      `stored ${stored.count.toLocaleString('en-US')} spans (${stored.unique.toLocaleString('en-US')} distinct), ${stored.runs.toLocaleString('en-US')} runs; content rows ${stored.content.rows.toLocaleString('en-US')} of ${load.ackedContentSpans.toLocaleString('en-US')} acknowledged llm spans, ${stored.content.spanRowsWithContent} span rows holding content`,
    );

    const ceiling = opts.ceilingRows === 0 ? undefined : await runCeiling();
    async function runCeiling(): Promise<CeilingResult> {
      log(
        `ceiling: ${opts.ceilingRows.toLocaleString('en-US')} rows in ${opts.batchRows.toLocaleString('en-US')}-row inserts into a fresh store`,
      );
      const result = await runChild<CeilingResult>([
        'ceiling',
        poolFile,
        String(opts.ceilingRows),
        String(opts.batchRows),
        join(work, 'ceiling'),
        String(1_000_000_000),
      ]);
      log(`ceiling ${Math.round(result.rowsPerS).toLocaleString('en-US')} rows/s`);
      return result;
    }

    const ackedSpansPerS = load.windowAckedSpans / windowS;
    const lat = load.windowLatenciesMs;
    const threadCores = [...threadsEnd]
      .map(([thread, s]) => ({ thread, cores: (s - (threadsStart.get(thread) ?? 0)) / windowS }))
      .filter((x) => x.cores >= 0.005)
      .sort((a, b) => b.cores - a.cores);
    // content: one span_content row per acknowledged span that carried content, none left in the span rows
    const contentCorrect =
      stored.content.rows === load.ackedContentSpans &&
      stored.content.uniqueSpans === stored.content.rows &&
      stored.content.spanRowsWithContent === 0;
    const correct =
      stored.count === load.ackedSpans &&
      stored.unique === stored.count &&
      load.otherFailures.length === 0 &&
      contentCorrect;
    // spool bytes per span: the worker's payload parts (≈ 1.1 KB for the lean spans; content adds its own batch)
    const spoolBytesPerSpan = measuredSpoolBytesPerSpan;
    const backlogSpans = backlogAtLastAck / spoolBytesPerSpan;
    const windowDrainSpansPerS = (load.windowAckedSpans - (backlog.end - backlog.start) / spoolBytesPerSpan) / windowS;
    // a spool that grows during the window buffers acknowledgements; it does not sustain them: count the lower rate
    const sustainedSpansPerS = Math.min(ackedSpansPerS, windowDrainSpansPerS);
    const ratio = ceiling === undefined ? Number.NaN : sustainedSpansPerS / ceiling.rowsPerS;
    const first503S =
      load.first503Ms === undefined
        ? undefined
        : (load.first503Ms - (windowStartAt - opts.warmupSeconds * 1000)) / 1000;
    const { windowLatenciesMs: _lat, ...loadFacts } = load;
    const report: IngestReport = {
      measuredAt: new Date().toISOString(),
      command: opts.command,
      options: { ...opts, log: undefined } as unknown as Omit<IngestBenchOptions, 'log'>,
      machine: {
        nproc: cpus().length,
        cpuModel: cpus()[0]?.model ?? 'unknown',
        memoryGiB: totalmem() / 2 ** 30,
        node: process.version,
        clickhouse: stored.version,
      },
      loadAverage: { before: loadBefore, after: loadavg()[0] ?? 0 },
      payload: {
        spansPerRequest: SPANS_PER_REQUEST,
        runsPerRequest,
        bodyBytes,
        templates: templates.length,
        generateS,
        contentBytes: opts.contentBytes,
        contentSpansPerRequest,
        spoolBytesPerSpan,
      },
      load: loadFacts,
      ackedSpansPerS,
      stagesMs,
      latencyMs: { p50: nearestRank(lat, 0.5), p99: nearestRank(lat, 0.99), max: lat.at(-1) ?? Number.NaN },
      server: {
        peakRssMiB: sampler.peakRssMiB,
        peakAnonMiB: sampler.peakAnonMiB,
        peakFileMiB: sampler.peakFileMiB,
        engine:
          engineSampler.samples === 0
            ? undefined
            : {
                peakAllocatedMiB: engineSampler.peakAllocatedMiB,
                peakResidentMiB: engineSampler.peakResidentMiB,
                samples: engineSampler.samples,
              },
        cpuCores: (cpuEnd - cpuStart) / windowS,
        threadCores,
        backlogBytes: backlog,
        exitCode,
        shutdownMs,
      },
      catchUpMs,
      windowDrainSpansPerS,
      sustainedSpansPerS,
      first503S,
      catchUpSpansPerS: catchUpMs > 0 ? backlogSpans / (catchUpMs / 1000) : Number.NaN,
      runFactsAtCatchUp,
      clientCores: load.clientCpuS / windowS,
      stored,
      correct,
      ceiling,
      ratio,
      targets: [],
    };
    report.targets = ingestTargets(report);
    if (opts.keepData) log(`data kept in ${work}`);
    return report;
  } finally {
    await stopServer();
    if (!opts.keepData) rmSync(work, { recursive: true, force: true });
  }
}
