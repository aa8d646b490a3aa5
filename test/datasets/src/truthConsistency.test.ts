import type { SpanRecord } from '@telltale/store';
import { describe, expect, it } from 'vitest';
import { FAILURE_CAUSES, LOOP_KINDS, type LoopTruth } from './DatasetTruth.js';
import { analyzeRuns } from './analyzeRuns.js';
import { generateDataset } from './generateDataset.js';
import { smallDataset } from './smallDataset.js';
import { priceTokens } from './spanCostUsd.js';

const spec = smallDataset({ endNs: 1_900_000_000_000_000_000n });
const { spans, truth } = generateDataset(spec);
const facts = analyzeRuns(spans, { thresholds: spec.thresholds, prices: spec.cost.prices });

const close = (a: number, b: number): boolean => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
const loopKey = (l: LoopTruth): string => `${l.kind}/${l.variant}/${l.evidenceSpanIds[0] ?? ''}`;

describe('truth agrees with an independent reading of the spans (analyzeRuns)', () => {
  it('has the preset size: ~2k runs, ~20k spans', () => {
    expect(truth.runs).toHaveLength(2000);
    expect(spans.length).toBeGreaterThan(15_000);
    expect(spans.length).toBeLessThan(25_000);
    expect(facts.size).toBe(2000);
  });

  it('per run: outcome, cause, gap class, duration, steps, groups, tokens, cost, loops', () => {
    for (const r of truth.runs) {
      const f = facts.get(r.runId)!;
      const where = `run ${r.runIndex} (${r.agent})`;
      expect({ where, outcome: f.outcome, cause: f.primaryCause, gap: f.gapClass }).toEqual({
        where,
        outcome: r.outcome,
        cause: r.primaryCause,
        gap: r.gapClass,
      });
      expect(f.agent).toBe(r.outcome === 'incomplete' ? '' : r.agent);
      expect([f.durationNs, f.spanCount, f.steps, f.groups.length, f.failedGroups]).toEqual([
        r.durationNs,
        r.spanCount,
        r.steps,
        r.attemptGroups,
        r.failedGroups,
      ]);
      expect([f.inputTokens, f.outputTokens, f.unpricedSpans]).toEqual([
        r.inputTokens,
        r.outputTokens,
        r.unpricedSpans,
      ]);
      expect(close(f.costUsd, r.costUsd), `${where} cost ${f.costUsd} vs ${r.costUsd}`).toBe(true);
      const got = [...f.loops].sort((a, b) => loopKey(a).localeCompare(loopKey(b)));
      const want = [...r.loops].sort((a, b) => loopKey(a).localeCompare(loopKey(b)));
      expect(
        got.map(({ wastedCostUsd: _, ...l }) => l),
        where,
      ).toEqual(want.map(({ wastedCostUsd: _, ...l }) => l));
      got.forEach((l, i) => expect(close(l.wastedCostUsd, want[i]!.wastedCostUsd)).toBe(true));
    }
  });

  it('per step: the realised attempt-group counts over completed runs', () => {
    const outcome = new Map(truth.runs.map((r) => [r.runId, r]));
    const agg = new Map<
      string,
      {
        groups: number;
        inSuccess: number;
        firstOk: number;
        anyOk: number;
        recovered: number;
        attempts: number;
        okAttempts: number;
        extraNs: number;
        extraCost: number;
      }
    >();
    for (const f of facts.values()) {
      const run = outcome.get(f.runId)!;
      if (run.outcome === 'incomplete') continue;
      for (const g of f.groups) {
        const key = `${run.agent}/${g.stepName}`;
        const e = agg.get(key) ?? {
          groups: 0,
          inSuccess: 0,
          firstOk: 0,
          anyOk: 0,
          recovered: 0,
          attempts: 0,
          okAttempts: 0,
          extraNs: 0,
          extraCost: 0,
        };
        e.groups++;
        if (run.outcome === 'success') e.inSuccess++;
        if (g.firstOk) e.firstOk++;
        if (g.anyOk) e.anyOk++;
        if (!g.firstOk && g.anyOk) e.recovered++;
        e.attempts += g.attempts;
        e.okAttempts += g.okAttempts;
        e.extraNs += g.retryExtraNs;
        e.extraCost += g.retryExtraCostUsd;
        agg.set(key, e);
      }
    }
    expect(agg.size).toBe(truth.steps.filter((s) => s.groups > 0).length);
    for (const s of truth.steps.filter((x) => x.groups > 0)) {
      const e = agg.get(`${s.agent}/${s.stepName}`)!;
      expect(
        [e.groups, e.inSuccess, e.firstOk, e.anyOk, e.recovered, e.attempts, e.okAttempts, e.extraNs],
        s.stepName,
      ).toEqual([
        s.groups,
        s.groupsInSuccessfulRuns,
        s.firstOk,
        s.anyOk,
        s.recovered,
        s.attempts,
        s.okAttempts,
        s.retryExtraNs,
      ]);
      expect(s.failedFirst).toBe(s.groups - s.firstOk);
      expect(close(e.extraCost, s.retryExtraCostUsd)).toBe(true);
    }
  });

  it('per agent: counts, gap decomposition and the realised prediction', () => {
    for (const a of truth.agents) {
      const runs = truth.runs.filter((r) => r.agent === a.agent);
      const fs = runs.map((r) => facts.get(r.runId)!);
      expect(a.success).toBe(fs.filter((f) => f.outcome === 'success').length);
      expect(a.failure).toBe(fs.filter((f) => f.outcome === 'failure').length);
      expect(a.incomplete).toBe(fs.filter((f) => f.outcome === 'incomplete').length);
      expect([a.stepExplainedFailures, a.seamFailures, a.fallbackRecoveries]).toEqual(
        ['step_explained', 'seam', 'fallback_recovery'].map((g) => fs.filter((f) => f.gapClass === g).length),
      );
      let p = 1;
      for (const s of truth.steps.filter((x) => x.agent === a.agent && x.groups > 0))
        p *= (s.anyOk / s.groups) ** (s.groupsInSuccessfulRuns / a.success);
      expect(close(p, a.predictedRealized)).toBe(true);
    }
  });
});

describe('the dataset exercises every case', () => {
  it('has every primary cause, loop kind and variant, several times', () => {
    for (const c of FAILURE_CAUSES) expect(truth.totals.causes[c], c).toBeGreaterThanOrEqual(5);
    for (const k of LOOP_KINDS) expect(truth.totals.loops[k], k).toBeGreaterThanOrEqual(5);
    const variants = new Set(truth.runs.flatMap((r) => r.loops.map((l) => l.variant)));
    expect(variants).toEqual(new Set(['tool_args', 'alternation', 'state_hash', 'failed_validation', 'step_count']));
    expect(truth.runs.some((r) => r.loops.length > 0 && r.outcome === 'success')).toBe(true);
  });

  it('clean runs trigger no detector; each injected run exactly one', () => {
    for (const r of truth.runs) expect(r.loops.length, `run ${r.runIndex}`).toBe(r.forced ? 1 : 0);
    for (const f of facts.values()) {
      const r = truth.runs.find((x) => x.runId === f.runId)!;
      if (!r.forced) expect(f.loops).toEqual([]);
    }
  });

  it('has seam failures, fallback recoveries and step-explained failures', () => {
    const sum = (k: 'seamFailures' | 'fallbackRecoveries' | 'stepExplainedFailures'): number =>
      truth.agents.reduce((n, a) => n + a[k], 0);
    expect(sum('seamFailures')).toBeGreaterThanOrEqual(10);
    expect(sum('fallbackRecoveries')).toBeGreaterThanOrEqual(10);
    expect(sum('stepExplainedFailures')).toBeGreaterThanOrEqual(50);
  });

  it('sets the traps: aggregate usage spans, explicit and priced costs, unpriced models, declared failures, recovered timeouts', () => {
    const has = (pred: (s: SpanRecord) => boolean): number => spans.filter(pred).length;
    expect(has((s) => s.stepKind === 'handoff' && s.inputTokens > 0)).toBeGreaterThan(10);
    expect(has((s) => s.stepKind === '' && s.inputTokens > 0)).toBeGreaterThan(10);
    expect(has((s) => s.stepKind === 'run' && s.inputTokens > 0)).toBeGreaterThan(10);
    expect(has((s) => s.stepKind === 'llm' && s.costUsd !== null)).toBeGreaterThan(100);
    expect(has((s) => s.stepKind === 'llm' && s.costUsd === null && s.inputTokens > 0)).toBeGreaterThan(100);
    expect(truth.runs.filter((r) => r.unpricedSpans > 0).length).toBeGreaterThan(10);
    expect(has((s) => s.isRunRoot && s.statusCode === 0 && s.runOutcome === 'failure')).toBeGreaterThan(3);
    expect(has((s) => s.attempt === 0 && s.stepKind !== '' && s.stepKind !== 'run')).toBeGreaterThan(500);
    const unknownRuns = new Set(truth.runs.filter((r) => r.primaryCause === 'unknown').map((r) => r.runId));
    expect(has((s) => unknownRuns.has(s.runId) && /timeout/i.test(s.errorType))).toBeGreaterThan(0);
    // Counting every span's usage (aggregates included) would overstate cost.
    let naive = 0;
    for (const s of spans)
      naive +=
        s.costUsd ?? priceTokens(spec.cost.prices, s.model, s.inputTokens, s.outputTokens, s.cachedInputTokens) ?? 0;
    expect(naive).toBeGreaterThan(truth.totals.costUsd * 1.05);
  });

  it('partial executions are failed runs with a side effect that succeeded', () => {
    const partial = truth.runs.filter((r) => r.primaryCause === 'partial_execution');
    for (const r of partial)
      expect(spans.some((s) => s.runId === r.runId && s.sideEffect && s.statusCode !== 2)).toBe(true);
  });
});
