import { Analytics } from '@telltale/analytics';
import { DEFAULT_PRICES } from '@telltale/datasets';
import type { Store } from '@telltale/store';
import type { BenchCase } from './BenchCase.js';
import { benchContext, type BenchContext } from './BenchContext.js';
import type { BenchOptions } from './BenchOptions.js';
import { benchCases } from './benchCases.js';
import { compareRows } from './compareRows.js';
import { loadBenchData, type LoadMarker } from './loadBenchData.js';
import { loadAverage, machineFacts, waitForQuiet, type MachineFacts } from './machineFacts.js';
import { measure, type Timing } from './measure.js';
import { settleRunFacts, timeFinaliser, type FinaliserTiming } from './runFactsBench.js';
import { storageFacts, type StorageFacts } from './storageFacts.js';
import { StoreInspector } from '@telltale/store/testing';

export interface CaseResult {
  name: string;
  method: string;
  kind: BenchCase['kind'];
  targetMs: number | undefined;
  maxRatio: number | undefined;
  generic: boolean;
  /** The baseline is a lower bound (see BenchCase.plainIsLowerBound). */
  plainIsLowerBound: boolean;
  ours: Timing | undefined;
  plain: Timing | undefined;
  /** ours median / plain median. */
  ratio: number | undefined;
  /** Where the baseline's numbers differ from the store's (empty: they agree; undefined: no baseline). */
  disagreements: string[] | undefined;
  error: string | undefined;
  /** Targets missed (empty: all met). */
  misses: string[];
  /** 1-minute load average when the case started. */
  loadAverage: number;
}

export interface BenchReport {
  date: string;
  command: string;
  runs: number;
  seed: number;
  iterations: number;
  dataDir: string;
  machine: MachineFacts;
  load: LoadMarker;
  loadedNow: boolean;
  project: { projectId: string; spans: number; runs: number };
  storage: StorageFacts;
  rssMiB: { afterOpen: number; peakDuringQueries: number };
  quiet: { waitedMs: number; loadAverage: number; quiet: boolean; maxLoadAverage: number };
  /** Lowest and highest 1-minute load average seen at the start of a case. */
  loadAverageDuring: [number, number];
  /** The run-facts finaliser over the project's newest runs, timed before the queries. */
  finaliser: FinaliserTiming;
  results: CaseResult[];
  /** Facade methods without a written case (timed by a generic call). */
  uncovered: string[];
}

const MiB = 2 ** 20;

async function biggestProject(store: Store): Promise<{ projectId: string; spans: number; runs: number }> {
  const project = await new StoreInspector(store).largestProject();
  if (project === undefined) throw new Error('the bench store holds no spans');
  return project;
}

/** A completed run picked by hash (stable across re-runs of the same dataset). */
async function sampleRun(store: Store, projectId: string): Promise<{ runId: string; traceId: string }> {
  const run = await new StoreInspector(store).sampleCompletedRun(projectId);
  if (run === undefined) throw new Error(`project ${projectId} has no completed run`);
  return run;
}

async function disagreements(c: BenchCase): Promise<string[] | undefined> {
  if (c.plain === undefined || c.reference === undefined) return undefined;
  const [plain, reference] = await Promise.all([c.plain(), c.reference()]);
  const problems: string[] = [];
  for (const [part, ref] of Object.entries(reference)) {
    const rows = plain[part];
    if (rows === undefined) problems.push(`baseline has no part ${part}`);
    else problems.push(...compareRows(ref.rows, rows, ref.keys, ref.values).map((p) => `${part}: ${p}`));
  }
  return problems;
}

function misses(c: BenchCase, ours: Timing | undefined, ratio: number | undefined): string[] {
  const out: string[] = [];
  if (ours === undefined) return out;
  if (c.targetMs !== undefined && ours.medianMs >= c.targetMs)
    out.push(`median ${ours.medianMs.toFixed(0)} ms ≥ ${c.targetMs} ms`);
  if (c.maxRatio !== undefined && ratio !== undefined && ratio > c.maxRatio) {
    out.push(
      c.plainIsLowerBound === true
        ? `${ratio.toFixed(2)}× a lower bound: ratio to a real baseline unknown`
        : `${ratio.toFixed(2)}× the baseline > ${c.maxRatio}×`,
    );
  }
  return out;
}

/** Times one case: agreement check (untimed), then ours and the baseline, each warmed up once. */
async function runCase(c: BenchCase, iterations: number): Promise<CaseResult> {
  const base = {
    name: c.name,
    method: c.method,
    kind: c.kind,
    targetMs: c.targetMs,
    maxRatio: c.maxRatio,
    generic: c.generic ?? false,
    plainIsLowerBound: c.plainIsLowerBound ?? false,
    loadAverage: loadAverage(),
  };
  try {
    const disagree = await disagreements(c);
    const ours = await measure(c.ours, iterations);
    const plainFn = c.plain;
    const plain = plainFn === undefined ? undefined : await measure(() => plainFn(), iterations);
    const ratio = plain === undefined ? undefined : ours.medianMs / plain.medianMs;
    return { ...base, ours, plain, ratio, disagreements: disagree, error: undefined, misses: misses(c, ours, ratio) };
  } catch (err) {
    const full = err instanceof Error ? (err.message.split('\n')[0] ?? err.message) : String(err);
    const message = full.length > 300 ? `${full.slice(0, 300)}…` : full;
    return {
      ...base,
      ours: undefined,
      plain: undefined,
      ratio: undefined,
      disagreements: undefined,
      error: message,
      misses: [`failed: ${message}`],
    };
  }
}

/**
 * The whole benchmark: load (or reuse) the dataset, settle the run facts,
 * record storage and machine facts, wait for a quiet machine, time the
 * run-facts finaliser (then settle again), then time every case.
 */
export async function runBench(
  opts: BenchOptions & { command: string; log?: (line: string) => void },
): Promise<BenchReport> {
  const log = opts.log ?? (() => undefined);
  const { store, marker, loadedNow } = await loadBenchData({ ...opts, log });
  try {
    const rssAfterOpen = process.memoryUsage().rss / MiB;
    const settleStarted = performance.now();
    await settleRunFacts(store);
    log(`run facts finalised and merged: ${((performance.now() - settleStarted) / 1000).toFixed(1)} s`);
    const [machine, storage, project] = [
      await machineFacts(store),
      await storageFacts(store),
      await biggestProject(store),
    ];
    const sample = await sampleRun(store, project.projectId);
    const filter = {
      projectId: project.projectId,
      fromUnixNano: BigInt(marker.startNs),
      toUnixNano: BigInt(marker.endNs) + 1n,
    };
    const analytics = new Analytics(store, { pricesFor: () => DEFAULT_PRICES });
    const ctx: BenchContext = benchContext(store, analytics, filter, DEFAULT_PRICES, sample);
    const { cases, uncovered } = benchCases(ctx);
    log(
      `project ${project.projectId}: ${project.spans.toLocaleString('en')} spans, ${project.runs.toLocaleString('en')} runs; ${cases.length} cases`,
    );
    const quiet = await waitForQuiet(opts.maxLoadAverage, opts.quietWaitMs, log);
    const finaliser = await timeFinaliser(store, project.projectId);
    log(
      `run-facts finaliser: ${finaliser.runs.toLocaleString('en')} runs in ${finaliser.wallMs.toFixed(0)} ms (${finaliser.cpuMs.toFixed(0)} CPU-ms)`,
    );
    await settleRunFacts(store);
    let peakRss = process.memoryUsage().rss;
    const sampler = setInterval(() => {
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
    }, 25);
    const results: CaseResult[] = [];
    try {
      for (const c of cases) {
        const r = await runCase(c, opts.iterations);
        results.push(r);
        log(
          `${c.name}: ${r.error ?? `${r.ours?.medianMs.toFixed(1)} ms${r.plain === undefined ? '' : ` (plain ${r.plain.medianMs.toFixed(1)} ms)`}`}`,
        );
      }
    } finally {
      clearInterval(sampler);
    }
    const loads = results.map((r) => r.loadAverage);
    return {
      date: new Date().toISOString(),
      command: opts.command,
      runs: opts.runs,
      seed: opts.seed,
      iterations: opts.iterations,
      dataDir: opts.dataDir,
      machine,
      load: marker,
      loadedNow,
      project,
      storage,
      rssMiB: { afterOpen: rssAfterOpen, peakDuringQueries: peakRss / MiB },
      quiet: { ...quiet, maxLoadAverage: opts.maxLoadAverage },
      loadAverageDuring: [Math.min(...loads), Math.max(...loads)],
      finaliser,
      results,
      uncovered,
    };
  } finally {
    await store.close();
  }
}
