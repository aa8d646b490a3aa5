import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Analytics } from '@telltale/analytics';
import { benchDataset, DEFAULT_PRICES, generateDatasetChunks } from '@telltale/datasets';
import { Store } from '@telltale/store';
import { StoreInspector } from '@telltale/store/testing';
import { benchContext } from './BenchContext.js';
import { loadAverage } from './machineFacts.js';
import { measure } from './measure.js';
import { FACTS_TABLES } from './runFactsBench.js';
import { catchUpCases, FRESH_RUNS, scalingCases } from './scalingCases.js';

/** One size of the scaling bench: spans of the measured project and each case's median in both table states. */
export interface ScalingSize {
  runs: number;
  /** Spans loaded (every project). */
  totalSpans: number;
  /** Spans of the measured project, all in the window. */
  spans: number;
  loadMs: number;
  optimizeMs: number;
  /** name → median wall ms, live (parts as inserted, background merges only) and merged (OPTIMIZE FINAL). */
  liveMs: Record<string, number>;
  mergedMs: Record<string, number>;
  /** name → median CPU ms of the process (every thread), less sensitive to other processes than wall time. */
  liveCpuMs: Record<string, number>;
  mergedCpuMs: Record<string, number>;
  loadAverage: [number, number];
}

export interface ScalingReport {
  date: string;
  command: string;
  iterations: number;
  rollupCases: string[];
  /** The run facts catch-up scans (catchUpCases), timed as the queries are and shown in a table of their own. */
  catchUpCases: string[];
  sizes: ScalingSize[];
}

async function timeAll(
  cases: ReturnType<typeof scalingCases>,
  iterations: number,
  log: (line: string) => void,
  state: string,
): Promise<{ wall: Record<string, number>; cpu: Record<string, number> }> {
  const out: Record<string, number> = {};
  const cpu: Record<string, number> = {};
  for (const c of cases) {
    try {
      const t = await measure(c.run, iterations);
      out[c.name] = t.medianMs;
      cpu[c.name] = t.cpuMedianMs;
      log(`${state} ${c.name}: ${t.medianMs.toFixed(1)} ms (${t.cpuMedianMs.toFixed(1)} CPU-ms)`);
    } catch (err) {
      out[c.name] = Number.NaN;
      cpu[c.name] = Number.NaN;
      log(`${state} ${c.name}: failed: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
    }
  }
  return { wall: out, cpu };
}

/**
 * The scaling bench: for each size, a fresh store loaded with the bench
 * preset of that many runs (≈ 100 spans each), the overview queries timed on
 * the live tables (run facts finalised, nothing merged by hand), then again
 * after OPTIMIZE FINAL of the spans, the rollup and the facts tables.
 */
export async function runScaling(opts: {
  sizes: readonly number[];
  seed: number;
  iterations: number;
  runsPerInsert: number;
  command: string;
  log: (line: string) => void;
}): Promise<ScalingReport> {
  const sizes: ScalingSize[] = [];
  let rollupCases: string[] = [];
  let scanCases: string[] = [];
  for (const runs of opts.sizes) {
    const dir = join(tmpdir(), `telltale-scaling-${runs}r-s${opts.seed}`);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    // the SQL finaliser, as the server's spool path (and as the figures so far were measured)
    const store = await Store.open({ kind: 'embedded', dataDir: dir }, { runFacts: { incremental: false } });
    try {
      const inspector = new StoreInspector(store);
      const spec = benchDataset({ runs, seed: opts.seed, endNs: BigInt(Date.now()) * 1_000_000n });
      const started = performance.now();
      let totalSpans = 0;
      for (const chunk of generateDatasetChunks(spec, { runsPerChunk: opts.runsPerInsert })) {
        await store.insertSpans(chunk.spans);
        totalSpans += chunk.spans.length;
      }
      const loadMs = performance.now() - started;
      await store.runFacts.flush();
      // a few runs more, as a live store receives between two catch-up scans
      const since = await store.runFacts.storageNowMs();
      const fresh = benchDataset({ runs: FRESH_RUNS, seed: opts.seed + 1, endNs: spec.endNs });
      for (const chunk of generateDatasetChunks(fresh, { runsPerChunk: FRESH_RUNS }))
        await store.insertSpans(chunk.spans);
      await store.runFacts.flush();
      const quietSince = (await store.runFacts.storageNowMs()) + 1;
      const project = await inspector.largestProject();
      if (project === undefined) throw new Error('the scaling store holds no spans');
      opts.log(
        `${runs} runs: project ${project.projectId} ${project.spans} spans, loaded in ${(loadMs / 1000).toFixed(0)} s`,
      );
      const filter = { projectId: project.projectId, ...dashboardWindow(spec.startNs, spec.endNs) };
      const sample = await inspector.sampleCompletedRun(project.projectId);
      if (sample === undefined) throw new Error('no completed run');
      const analytics = new Analytics(store, { pricesFor: () => DEFAULT_PRICES });
      const scans = catchUpCases(store, since, quietSince);
      const cases = [...scalingCases(benchContext(store, analytics, filter, DEFAULT_PRICES, sample)), ...scans];
      rollupCases = cases.filter((c) => c.rollup).map((c) => c.name);
      scanCases = scans.map((c) => c.name);
      const loadBefore = loadAverage();
      const live = await timeAll(cases, opts.iterations, opts.log, 'live');
      const optStarted = performance.now();
      await inspector.mergeParts(['spans', 'span_rollup_1m', ...FACTS_TABLES]);
      const optimizeMs = performance.now() - optStarted;
      const merged = await timeAll(cases, opts.iterations, opts.log, 'merged');
      sizes.push({
        runs,
        totalSpans,
        spans: project.spans,
        loadMs,
        optimizeMs,
        liveMs: live.wall,
        mergedMs: merged.wall,
        liveCpuMs: live.cpu,
        mergedCpuMs: merged.cpu,
        loadAverage: [loadBefore, loadAverage()],
      });
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return {
    date: new Date().toISOString(),
    command: opts.command,
    iterations: opts.iterations,
    rollupCases,
    catchUpCases: scanCases,
    sizes,
  };
}

const NS_PER_MINUTE = 60_000_000_000n;

/**
 * The window the dashboard asks for around [startNs, endNs]: on whole
 * minutes (its presets end at the next whole minute), so the rollup serves
 * all of it; a window with partial minutes at its edges also reads the
 * spans of those minutes.
 */
export function dashboardWindow(startNs: bigint, endNs: bigint): { fromUnixNano: bigint; toUnixNano: bigint } {
  return {
    fromUnixNano: startNs - (startNs % NS_PER_MINUTE),
    toUnixNano: (endNs / NS_PER_MINUTE + 1n) * NS_PER_MINUTE,
  };
}
