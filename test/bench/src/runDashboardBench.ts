import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Store } from '@telltale/store';
import { DEFAULT_RUNS, DEFAULT_SEED, defaultDataDir, SMOKE_RUNS } from './BenchOptions.js';
import { DASHBOARD_PAGES, type DashboardPage } from './dashboardPages.js';
import { loadBenchData, type LoadMarker } from './loadBenchData.js';
import { loadAverage, machineFacts, waitForQuiet, type MachineFacts } from './machineFacts.js';
import { launchChromium, visitPage, type PageVisits } from './measurePages.js';
import { median } from './measure.js';
import { settleRunFacts } from './runFactsBench.js';
import { ServerProcess } from './ServerProcess.js';
import { StoreInspector } from '@telltale/store/testing';

const REPO_ROOT = resolve(fileURLToPath(new URL('../../..', import.meta.url)));
export const SERVER_CLI = join(REPO_ROOT, 'apps/server/dist/cli.js');
export const WEB_INDEX = join(REPO_ROOT, 'apps/server/dist/web/index.html');

/** Issue 5: every page renders its first data in under 2 s. */
export const FIRST_DATA_TARGET_MS = 2_000;

export interface DashboardBenchOptions {
  runs: number;
  seed: number;
  dataDir: string;
  fresh: boolean;
  /** Measured cold navigations per page, after one warm-up visit. */
  navigations: number;
  /** A navigation that has not shown all its data after this long is recorded as timed out. */
  timeoutMs: number;
  maxLoadAverage: number;
  quietWaitMs: number;
  /** Only the pages whose name contains one of these (case-insensitive); empty: all. */
  only: string[];
  log: (line: string) => void;
}

export function dashboardBenchOptions(
  partial: Partial<DashboardBenchOptions> & { smoke?: boolean } = {},
): DashboardBenchOptions {
  const smoke = partial.smoke === true;
  const runs = partial.runs ?? (smoke ? SMOKE_RUNS : DEFAULT_RUNS);
  const seed = partial.seed ?? DEFAULT_SEED;
  return {
    runs,
    seed,
    dataDir: partial.dataDir ?? defaultDataDir(runs, seed),
    fresh: partial.fresh ?? false,
    navigations: partial.navigations ?? (smoke ? 1 : 5),
    timeoutMs: partial.timeoutMs ?? (smoke ? 20_000 : 60_000),
    maxLoadAverage: partial.maxLoadAverage ?? 1.5,
    quietWaitMs: partial.quietWaitMs ?? (smoke ? 0 : 5 * 60_000),
    only: partial.only ?? [],
    log: partial.log ?? (() => undefined),
  };
}

/** Summary of one page's measured navigations. */
export interface PageResult {
  name: string;
  path: string;
  firstData: { medianMs: number; maxMs: number; samplesMs: number[] };
  allData: { medianMs: number; maxMs: number; samplesMs: number[] };
  /** Per mark: the median time it was painted. */
  marks: { name: string; first: boolean; medianMs: number }[];
  /** Server CPU per navigation (median, ms): the page's cost on the server, steadier than wall time on a shared machine. */
  serverCpuMs: number;
  /** API calls per navigation (median). */
  apiCalls: number;
  /** Every route the page called, with its median start, end and duration over the measured navigations (calls of one route in one navigation each count). */
  apiRoutes: { route: string; calls: number; startMs: number; endMs: number; durationMs: number }[];
  /** The route with the longest median duration over the measured navigations, and that median. */
  slowestApi: { route: string; medianMs: number; maxMs: number } | undefined;
  /** Median response end of the last API call: when the page's data had all arrived. */
  lastApiEndMs: number;
  /** Median end of the HTML and of the last script/style (the app's own load, before any API call). */
  htmlMs: number;
  assetsEndMs: number;
  timeouts: number;
  problems: string[];
  warmup: { firstDataMs: number; allDataMs: number };
  met: boolean;
}

export interface DashboardReport {
  measuredAt: string;
  command: string;
  options: Omit<DashboardBenchOptions, 'log'>;
  machine: MachineFacts;
  chromium: string;
  data: LoadMarker & { loadedNow: boolean; totalSpans: number };
  project: { projectId: string; spans: number; runs: number };
  /** Opening the data directory (with the store's reconcile) and finalising + merging the run facts, in the bench process before the server starts. */
  prepareMs: { open: number; settleFacts: number };
  /** `telltale start` until GET /health answers: migrations and listen (the run-facts catch-up runs in the background after). */
  serverStartMs: number;
  runs: { typical: { runId: string; spans: number }; largest: { runId: string; spans: number } };
  window: { fromIso: string; toIso: string };
  quiet: { waitedMs: number; loadAverage: number; quiet: boolean; maxLoadAverage: number };
  loadAverageDuring: [number, number];
  pages: PageResult[];
}

async function biggestProject(store: Store): Promise<{ projectId: string; spans: number; runs: number }> {
  const project = await new StoreInspector(store).largestProject();
  if (project === undefined) throw new Error('the bench store holds no spans');
  return project;
}

/** The run with the most spans (the API lists runs by time only). */
async function largestRun(store: Store, projectId: string): Promise<{ runId: string; spans: number }> {
  const run = await new StoreInspector(store).largestRun(projectId);
  if (run === undefined) throw new Error(`project ${projectId} has no runs`);
  return run;
}

function cli(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolvePromise) => {
    execFile(process.execPath, [SERVER_CLI, ...args], (err, stdout, stderr) => {
      const code = err === null ? 0 : typeof err.code === 'number' ? err.code : 1;
      resolvePromise({ code, stdout, stderr });
    });
  });
}

/**
 * A read key for `projectId` (the server runs with `--auth keys`: an open
 * server shows only project `default`, and the bench data's projects are
 * others), made with the product's own CLI on the closed data directory.
 */
async function readKeyFor(dataDir: string, projectId: string): Promise<string> {
  const project = await cli(['projects', 'create', projectId, '--data-dir', dataDir]);
  if (project.code !== 0 && !/exists/i.test(project.stderr))
    throw new Error(`telltale projects create failed: ${project.stderr}`);
  const key = await cli([
    'keys',
    'create',
    '--project',
    projectId,
    '--kind',
    'read',
    '--name',
    'dashboard-bench',
    '--data-dir',
    dataDir,
  ]);
  const match = /tt_read_\S+/.exec(key.stdout);
  if (key.code !== 0 || match === null) throw new Error(`telltale keys create failed: ${key.stderr}`);
  return match[0];
}

/** A typical run from the API: the median span count among the window's newest 1,000 runs. */
async function typicalRun(
  server: ServerProcess,
  readKey: string,
  window: { fromIso: string; toIso: string },
): Promise<{ runId: string; spans: number }> {
  const query = new URLSearchParams({ limit: '1000', from: window.fromIso, to: window.toIso });
  const res = await fetch(`${server.url}/api/v1/runs?${query.toString()}`, {
    headers: { authorization: `Bearer ${readKey}` },
  });
  if (!res.ok) throw new Error(`GET /runs: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { runs: { runId: string; spans: number; outcome: string }[] };
  const sorted = body.runs
    .filter((r) => r.outcome !== 'incomplete')
    .sort((a, b) => a.spans - b.spans || a.runId.localeCompare(b.runId));
  const pick = sorted[Math.floor(sorted.length / 2)];
  if (pick === undefined) throw new Error('GET /runs listed no completed run');
  return { runId: pick.runId, spans: pick.spans };
}

function pageUrl(
  base: string,
  page: DashboardPage,
  window: { fromIso: string; toIso: string },
  runs: DashboardReport['runs'],
): string {
  const path =
    page.path === '/runs/:runId'
      ? `/runs/${encodeURIComponent(page.name.includes('largest') ? runs.largest.runId : runs.typical.runId)}`
      : page.path;
  return page.windowed
    ? `${base}${path}?${new URLSearchParams({ from: window.fromIso, to: window.toIso }).toString()}`
    : `${base}${path}`;
}

function summarise(v: PageVisits): PageResult {
  const finite = (xs: number[]): number[] => xs.filter((x) => Number.isFinite(x));
  const stat = (xs: number[]): { medianMs: number; maxMs: number; samplesMs: number[] } => {
    const sorted = [...xs].sort((a, b) => a - b);
    // a missing sample (timeout) counts as infinitely slow
    const safe = sorted.map((x) => (Number.isFinite(x) ? x : Number.POSITIVE_INFINITY));
    return { medianMs: median(safe), maxMs: safe.length === 0 ? Number.NaN : Math.max(...safe), samplesMs: xs };
  };
  const byRoute = new Map<string, number[]>();
  const calls = new Map<string, { startMs: number; endMs: number; durationMs: number }[]>();
  for (const visit of v.visits) {
    for (const call of visit.recording.api) {
      byRoute.set(call.route, [...(byRoute.get(call.route) ?? []), call.durationMs]);
      calls.set(call.route, [...(calls.get(call.route) ?? []), call]);
    }
  }
  let slowest: PageResult['slowestApi'];
  for (const [route, durations] of byRoute) {
    const m = median([...durations].sort((a, b) => a - b));
    if (slowest === undefined || m > slowest.medianMs) slowest = { route, medianMs: m, maxMs: Math.max(...durations) };
  }
  const med = (xs: number[]): number => median(finite(xs).sort((a, b) => a - b));
  const firstData = stat(v.visits.map((x) => x.firstDataMs));
  return {
    name: v.page.name,
    path: v.page.path,
    firstData,
    allData: stat(v.visits.map((x) => x.allDataMs)),
    marks: v.page.marks.map((m) => ({
      name: m.name,
      first: m.first,
      medianMs: med(v.visits.map((x) => x.recording.marks[m.name] ?? Number.NaN)),
    })),
    serverCpuMs: med(v.visits.map((x) => x.serverCpuMs)),
    apiCalls: med(v.visits.map((x) => x.recording.api.length)),
    apiRoutes: [...calls]
      .map(([route, cs]) => ({
        route,
        calls: cs.length / Math.max(1, v.visits.length),
        startMs: med(cs.map((c) => c.startMs)),
        endMs: med(cs.map((c) => c.endMs)),
        durationMs: med(cs.map((c) => c.durationMs)),
      }))
      .sort((a, b) => a.startMs - b.startMs),
    slowestApi: slowest,
    lastApiEndMs: med(v.visits.map((x) => Math.max(0, ...x.recording.api.map((c) => c.endMs)))),
    htmlMs: med(v.visits.map((x) => x.recording.htmlMs)),
    assetsEndMs: med(v.visits.map((x) => x.recording.assets.lastEndMs)),
    timeouts: v.visits.filter((x) => x.timedOut).length,
    problems: [...new Set(v.visits.flatMap((x) => x.recording.problems))],
    warmup: { firstDataMs: v.warmup.firstDataMs, allDataMs: v.warmup.allDataMs },
    met: firstData.maxMs < FIRST_DATA_TARGET_MS && v.visits.every((x) => !x.timedOut),
  };
}

/**
 * The dashboard bench: the bench dataset (reused from its cache directory),
 * its run facts settled, a read key for its largest project, the real server
 * on it, then every page in Chromium: a warm-up visit and `navigations` cold
 * ones, timed in the page from navigation start to the first and the last of
 * its data on screen.
 */
export async function runDashboardBench(opts: DashboardBenchOptions & { command: string }): Promise<DashboardReport> {
  const { log } = opts;
  if (!existsSync(SERVER_CLI) || !existsSync(WEB_INDEX))
    throw new Error(
      `build first: ${SERVER_CLI} and ${WEB_INDEX} are needed (npx tsc -b && npm run --prefix apps/web build)`,
    );
  let t = performance.now();
  const { store, marker, loadedNow } = await loadBenchData({
    dataDir: opts.dataDir,
    runs: opts.runs,
    seed: opts.seed,
    runsPerInsert: 500,
    fresh: opts.fresh,
    log,
  });
  const openMs = performance.now() - t;
  let machine: MachineFacts;
  let project: DashboardReport['project'];
  let largest: { runId: string; spans: number };
  let totalSpans: number;
  let settleMs: number;
  try {
    t = performance.now();
    await settleRunFacts(store);
    settleMs = performance.now() - t;
    log(`run facts finalised and merged: ${(settleMs / 1000).toFixed(1)} s`);
    machine = await machineFacts(store);
    project = await biggestProject(store);
    largest = await largestRun(store, project.projectId);
    totalSpans = await new StoreInspector(store).spanCount();
  } finally {
    await store.close();
  }
  const readKey = await readKeyFor(opts.dataDir, project.projectId);
  const window = {
    fromIso: new Date(Number(BigInt(marker.startNs) / 1_000_000n)).toISOString(),
    toIso: new Date(Number(BigInt(marker.endNs) / 1_000_000n) + 1).toISOString(),
  };

  t = performance.now();
  const server = await ServerProcess.start(
    SERVER_CLI,
    ['--data-dir', opts.dataDir, '--auth', 'keys', '--log-level', 'warn'],
    [],
    { authorization: `Bearer ${readKey}` },
  );
  const serverStartMs = performance.now() - t;
  log(
    `server on ${server.url} in ${(serverStartMs / 1000).toFixed(1)} s; project ${project.projectId}: ${project.spans.toLocaleString('en')} spans, ${project.runs.toLocaleString('en')} runs`,
  );
  const browser = await launchChromium();
  try {
    const typical = await typicalRun(server, readKey, window);
    const runs = { typical, largest };
    log(`runs: typical ${typical.runId} (${typical.spans} spans), largest ${largest.runId} (${largest.spans} spans)`);
    const quiet = await waitForQuiet(opts.maxLoadAverage, opts.quietWaitMs, log);
    const only = opts.only.map((s) => s.toLowerCase());
    const pages = DASHBOARD_PAGES.filter(
      (p) => only.length === 0 || only.some((s) => p.name.toLowerCase().includes(s)),
    );
    const results: PageResult[] = [];
    const loads: number[] = [];
    for (const page of pages) {
      const visits = await visitPage(
        browser,
        page,
        pageUrl(server.url, page, window, runs),
        readKey,
        opts.navigations,
        opts.timeoutMs,
        server.pid,
      );
      loads.push(...visits.visits.map((x) => x.loadAverage));
      const r = summarise(visits);
      results.push(r);
      log(
        `${page.name}: first data median ${r.firstData.medianMs.toFixed(0)} ms (max ${r.firstData.maxMs.toFixed(0)}), all data median ${r.allData.medianMs.toFixed(0)} ms; slowest API ${r.slowestApi?.route ?? '—'} ${r.slowestApi?.medianMs.toFixed(0) ?? ''} ms${r.problems.length > 0 ? `; problems: ${r.problems.join(', ')}` : ''}`,
      );
    }
    const options = {
      runs: opts.runs,
      seed: opts.seed,
      dataDir: opts.dataDir,
      fresh: opts.fresh,
      navigations: opts.navigations,
      timeoutMs: opts.timeoutMs,
      maxLoadAverage: opts.maxLoadAverage,
      quietWaitMs: opts.quietWaitMs,
      only: opts.only,
    };
    return {
      measuredAt: new Date().toISOString(),
      command: opts.command,
      options,
      machine,
      chromium: browser.version(),
      data: { ...marker, loadedNow, totalSpans },
      project,
      prepareMs: { open: openMs, settleFacts: settleMs },
      serverStartMs,
      runs,
      window,
      quiet: { ...quiet, maxLoadAverage: opts.maxLoadAverage },
      loadAverageDuring: loads.length === 0 ? [loadAverage(), loadAverage()] : [Math.min(...loads), Math.max(...loads)],
      pages: results,
    };
  } finally {
    await browser.close();
    await server.stop();
  }
}
