import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Store, type AnalyticsFilter, type SpanRecord } from '@telltale/store';
import { DEFAULT_LOOP_THRESHOLDS, LOOP_KINDS } from '@telltale/semconv';
import { EMPTY_PRICE_TABLE } from '@telltale/store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Analytics } from '../Analytics.js';
import { detectLoops, type LoopDetection, type LoopStep } from './detectLoops.js';
import { LoopAnalytics } from './LoopAnalytics.js';
import { medianSteps } from './LoopThresholds.js';

/*
 * The SQL (store) and the TS detector must agree: 400 random runs drawn to
 * hit every rule often (few tools, args, states and outputs; ties in start
 * time; retries), checked detection by detection, and in the totals.
 */
const T = { repeat: 3, pingPongCycles: 2, runawayMultiplier: 2, runawayHardCap: 14 };
const HOUR_NS = 3_600_000_000_000n;
const T0 = ((BigInt(Date.now()) * 1_000_000n) / HOUR_NS) * HOUR_NS - 3n * HOUR_NS;

function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let nextSpan = 0x10000;
function span(
  o: Partial<SpanRecord> & Pick<SpanRecord, 'runId' | 'startTimeUnixNano' | 'endTimeUnixNano'>,
): SpanRecord {
  return {
    projectId: 'p1',
    traceId: o.runId.padEnd(32, '0'),
    spanId: (nextSpan++).toString(16).padStart(16, '0'),
    parentSpanId: '',
    traceState: '',
    isRunRoot: false,
    serviceName: 'svc',
    name: 'span',
    spanKind: 1,
    stepKind: '',
    stepName: '',
    attempt: 1,
    toolName: '',
    toolArgsHash: '',
    stateHash: '',
    outputHash: '',
    sideEffect: false,
    model: '',
    provider: '',
    inputTokens: 0,
    outputTokens: 0,
    cachedInputTokens: 0,
    costUsd: null,
    statusCode: 1,
    statusMessage: '',
    errorType: '',
    runOutcome: '',
    attributes: [],
    resourceAttributes: [],
    scopeName: '',
    scopeVersion: '',
    events: [],
    links: [],
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
    ...o,
  };
}

function randomRuns(count: number, seed: number): SpanRecord[] {
  const r = rng(seed);
  const pick = <X>(xs: readonly X[]): X => xs[Math.floor(r() * xs.length)]!;
  const out: SpanRecord[] = [];
  for (let i = 0; i < count; i++) {
    const runId = `run-${i}`;
    const start = T0 + BigInt(i) * 20_000_000_000n;
    const n = r() < 0.1 ? 15 + Math.floor(r() * 20) : 1 + Math.floor(r() * 14);
    const root = (nextSpan++).toString(16).padStart(16, '0');
    let t = start + 1_000_000n;
    let pair: [string, string] = [pick(['A', 'B', 'C']), pick(['A', 'B', 'C'])];
    for (let k = 0; k < n; k++) {
      // some runs validate over and over
      const kind =
        i % 7 === 0 && r() < 0.7
          ? 'validate'
          : pick(['tool', 'tool', 'tool', 'tool', 'plan', 'validate', 'validate', 'llm', 'act']);
      const tool = r() < 0.6 ? pair[k % 2]! : pick(['A', 'B', 'C']);
      if (r() < 0.1) pair = [pick(['A', 'B', 'C']), pick(['A', 'B', 'C'])];
      const dur = BigInt(1 + Math.floor(r() * 5)) * 1_000_000n;
      out.push(
        span({
          runId,
          parentSpanId: root,
          stepKind: kind,
          stepName: kind === 'tool' ? tool : kind,
          name: kind,
          toolName: kind === 'tool' ? tool : '',
          toolArgsHash: kind === 'tool' ? pick(['a', 'b', '']) : '',
          stateHash: kind === 'plan' || kind === 'validate' ? pick(['s1', 's2', '']) : '',
          outputHash: kind === 'validate' ? pick(['o1', 'o2', '']) : '',
          statusCode: r() < (kind === 'validate' ? 0.6 : 0.15) ? 2 : 1,
          attempt: r() < 0.2 ? 2 : 1,
          costUsd: r() < 0.5 ? Math.floor(r() * 100) / 1000 : null,
          startTimeUnixNano: t,
          endTimeUnixNano: t + dur,
        }),
      );
      // a fifth of the steps start at the same nanosecond as the next one
      if (r() > 0.2) t += 10_000_000n;
    }
    if (r() < 0.9) {
      out.push(
        span({
          runId,
          spanId: root,
          isRunRoot: true,
          stepKind: 'run',
          stepName: 'agent',
          name: i % 3 === 0 ? 'x' : 'y',
          statusCode: r() < 0.3 ? 2 : 1,
          startTimeUnixNano: start,
          endTimeUnixNano: t + 1_000_000n,
        }),
      );
    }
  }
  return out;
}

interface TsRun {
  runId: string;
  detections: LoopDetection[];
  steps: LoopStep[];
}

/** The TS view of every run, medians from the completed runs of each agent. */
function tsRuns(spans: readonly SpanRecord[]): TsRun[] {
  const byRun = new Map<string, SpanRecord[]>();
  for (const s of spans) byRun.set(s.runId, [...(byRun.get(s.runId) ?? []), s]);
  const isStep = (s: SpanRecord): boolean => s.stepKind !== '' && s.stepKind !== 'run';
  const stepsByAgent = new Map<string, number[]>();
  for (const list of byRun.values()) {
    const root = list.find((s) => s.isRunRoot);
    if (root !== undefined)
      stepsByAgent.set(root.name, [...(stepsByAgent.get(root.name) ?? []), list.filter(isStep).length]);
  }
  return [...byRun.entries()].map(([runId, list]) => {
    const root = list.find((s) => s.isRunRoot);
    const steps = list.filter(isStep).map((s): LoopStep => ({
      spanId: s.spanId,
      startNs: s.startTimeUnixNano,
      kind: s.stepKind,
      name: s.toolName || s.stepName,
      argsHash: s.toolArgsHash,
      stateHash: s.stateHash,
      outputHash: s.outputHash,
      ok: s.statusCode !== 2,
      durationNs: Number(s.endTimeUnixNano - s.startTimeUnixNano),
      costUsd: s.costUsd ?? 0,
    }));
    const median = root === undefined ? null : medianSteps(stepsByAgent.get(root.name)!);
    return { runId, steps, detections: detectLoops(steps, T, { agentMedianSteps: median }) };
  });
}

const key = (
  runId: string,
  d: { variant: string; count: number; wastedNs: number; wastedCostUsd: number },
  anchor: bigint | string,
  anchorSpan: string | undefined,
): string =>
  `${runId}|${d.variant}|${d.count}|${String(anchor)}|${anchorSpan}|${d.wastedNs}|${d.wastedCostUsd.toFixed(9)}`;

/** Σ over runs of the run's wasted spans (each once) among the detections `keep` selects. */
function union(
  runs: readonly TsRun[],
  keep: (d: LoopDetection) => boolean,
): { runs: number; ns: number; cost: number } {
  let flagged = 0;
  let ns = 0;
  let cost = 0;
  for (const run of runs) {
    const ds = run.detections.filter(keep);
    if (ds.length === 0) continue;
    flagged++;
    const wasted = new Set<string>();
    for (const d of ds)
      for (const id of d.variant === 'alternation'
        ? d.spanIds.slice(2)
        : d.variant === 'step_count'
          ? d.spanIds
          : d.spanIds.slice(1))
        wasted.add(id);
    for (const s of run.steps) {
      if (!wasted.has(s.spanId)) continue;
      ns += s.durationNs;
      cost += s.costUsd;
      wasted.delete(s.spanId);
    }
  }
  return { runs: flagged, ns, cost };
}

describe('SQL and TS loop detection agree', () => {
  let dir: string;
  let store: Store;
  let spans: SpanRecord[];
  let ts: TsRun[];
  const filter: AnalyticsFilter = { projectId: 'p1', fromUnixNano: T0 - 1n, toUnixNano: T0 + 4n * HOUR_NS };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'telltale-loop-parity-'));
    store = await Store.open({ kind: 'embedded', dataDir: dir });
    spans = randomRuns(400, 20_261_122);
    await store.insertSpans(spans);
    ts = tsRuns(spans);
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('finds the same detections, counts, anchors and waste', async () => {
    const page = await store.metrics.loopPage(filter, EMPTY_PRICE_TABLE, T, { limit: 10_000, offset: 0 });
    const sql = page.detections.map((d) => key(d.runId, d, d.anchorStartNs, d.anchorSpanId)).sort();
    const expected = ts
      .flatMap((run) => run.detections.map((d) => key(run.runId, d, d.anchorStartNs, d.spanIds[0])))
      .sort();
    expect(sql).toEqual(expected);
    // every rule fired, often
    for (const v of ['tool_args', 'state_hash', 'failed_validation', 'alternation', 'step_count']) {
      expect(page.detections.filter((d) => d.variant === v).length, v).toBeGreaterThanOrEqual(5);
    }
    expect(page.total).toBe(expected.length);
    expect(page.runs).toBe(400);
  });

  it('agrees on the totals per kind and overall, each wasted span once', async () => {
    const page = await store.metrics.loopPage(filter, EMPTY_PRICE_TABLE, T, { limit: 1, offset: 0 });
    for (const k of LOOP_KINDS) {
      const u = union(ts, (d) => d.kind === k);
      expect([page.byKind[k].runsFlagged, page.byKind[k].wastedNs, page.byKind[k].wastedCostUsd.toFixed(9)], k).toEqual(
        [u.runs, u.ns, u.cost.toFixed(9)],
      );
    }
    const all = union(ts, () => true);
    expect([page.overall.runsFlagged, page.overall.wastedNs, page.overall.wastedCostUsd.toFixed(9)]).toEqual([
      all.runs,
      all.ns,
      all.cost.toFixed(9),
    ]);
  });

  it('agrees on the run flags', async () => {
    const flags = await store.metrics.runLoopFlags(filter, EMPTY_PRICE_TABLE, T);
    const expected = ts
      .filter((r) => r.detections.length > 0)
      .map((r) => {
        const u = union([r], () => true);
        return [r.runId, [...new Set(r.detections.map((d) => d.kind))].sort(), r.detections.length, u.ns];
      })
      .sort((a, b) => (String(a[0]) < String(b[0]) ? -1 : 1));
    expect(flags.map((f) => [f.runId, [...f.kinds].sort(), f.detections, f.wastedNs])).toEqual(expected);
  });

  it('lists the same looping runs as the flags, from the run facts and from the spans', async () => {
    for (const [label, f, t] of [
      ['facts, default thresholds', filter, DEFAULT_LOOP_THRESHOLDS],
      ['spans, default thresholds', { ...filter, recompute: true }, DEFAULT_LOOP_THRESHOLDS],
      ['spans, these thresholds', filter, T],
    ] as const) {
      const flagged = (await store.metrics.runLoopFlags(f, EMPTY_PRICE_TABLE, t)).map((r) => r.runId);
      expect(flagged.length, label).toBeGreaterThan(10);
      expect(await store.metrics.loopingRunIds(f, EMPTY_PRICE_TABLE, t), label).toEqual(flagged);
    }
    // through the facade's loop analytics, for a page of runs too (runaway limits from the whole window's medians)
    const loops = new LoopAnalytics(store, () => Promise.resolve(EMPTY_PRICE_TABLE));
    const page = { ...filter, runIds: ts.slice(0, 60).map((r) => r.runId) };
    for (const f of [filter, page])
      expect(await loops.loopingRunIds(f)).toEqual((await loops.runLoopFlags(f)).map((r) => r.runId));
    expect((await loops.loopingRunIds(page)).length).toBeGreaterThan(0);
  });

  it("gives the facade's page the TS evidence of every detection", async () => {
    const analytics = new Analytics(store, { pricesFor: () => EMPTY_PRICE_TABLE });
    const report = await analytics.loops(filter, { limit: 40, offset: 10, thresholds: T });
    expect(report.detections).toHaveLength(40);
    for (const d of report.detections) {
      // the evidence is the TS detection with the SQL's numbers
      const run = ts.find((r) => r.runId === d.runId)!;
      const match = run.detections.find((x) => x.variant === d.variant && x.spanIds[0] === d.evidence.spanIds[0]);
      expect(match, `${d.runId} ${d.variant}`).toBeDefined();
      expect([match!.count, match!.wastedNs, match!.spanIds.length]).toEqual([
        d.count,
        d.wastedNs,
        d.evidence.spanCount,
      ]);
      expect(d.evidence.spanIds).toEqual(match!.spanIds.slice(0, 50));
      if (d.variant === 'tool_args')
        expect([d.evidence.toolName, d.evidence.argsHash]).toEqual([match!.toolName, match!.argsHash]);
      if (d.variant === 'alternation') expect(d.evidence.cycle).toEqual(match!.cycle);
    }
  });
});
