import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Analytics, type ReliabilitySummary } from '@telltale/analytics';
import {
  DEFAULT_PRICES,
  generateDataset,
  shuffleForDelivery,
  smallDataset,
  type DatasetTruth,
} from '@telltale/datasets';
import { Store, type AnalyticsFilter, type SpanRecord } from '@telltale/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** The scrambled copy lives beside the ordered one under its own project ids (chDB: one data dir per process). */
const SCRAMBLED = '-scrambled';

/** Float sums depend on row order; compare to 12 significant digits. */
function rounded<T>(value: T): T {
  return JSON.parse(
    JSON.stringify(value, (_k, v: unknown) => (typeof v === 'number' ? Number(v.toPrecision(12)) : v)),
  ) as T;
}

const Z_WIDE = 4; // a 1-in-15,000 miss: used where every one of many checks must hold

describe('compounding reliability against the generator truth', () => {
  const { spans, truth } = generateDataset(smallDataset());
  const projects = [...new Set(truth.runs.map((r) => r.projectId))];
  const filterFor = (projectId: string, t: DatasetTruth): AnalyticsFilter => ({
    projectId,
    fromUnixNano: t.startNs,
    toUnixNano: t.endNs + 1n,
  });
  let dir: string;
  let store: Store;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'telltale-truth-'));
    store = await Store.open({ kind: 'embedded', dataDir: dir });
    await store.insertSpans(spans);
    // children before parents, runs interleaved, 30% of roots one to three batches late
    for (const batch of shuffleForDelivery(spans, 7)) {
      await store.insertSpans(batch.map((s): SpanRecord => ({ ...s, projectId: s.projectId + SCRAMBLED })));
    }
  });
  afterAll(async () => {
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('counts every step of every agent exactly as generated', async () => {
    for (const projectId of projects) {
      const stats = await store.metrics.stepGroupStats(filterFor(projectId, truth), DEFAULT_PRICES);
      const expected = truth.steps.filter((s) => s.projectId === projectId);
      expect(stats.length).toBe(expected.length);
      for (const t of expected) {
        const got = stats.find((s) => s.agent === t.agent && s.service === t.service && s.stepName === t.stepName);
        expect(got, `${t.agent}/${t.stepName}`).toBeDefined();
        expect(
          {
            groups: got!.groups,
            groupsInSuccessfulRuns: got!.groupsInSuccessfulRuns,
            firstOk: got!.firstOk,
            anyOk: got!.anyOk,
            failedFirst: got!.failedFirst,
            recovered: got!.recovered,
            attempts: got!.attempts,
            okAttempts: got!.okAttempts,
            retryExtraNs: got!.retryExtraNs,
          },
          `${t.agent}/${t.stepName}`,
        ).toEqual({
          groups: t.groups,
          groupsInSuccessfulRuns: t.groupsInSuccessfulRuns,
          firstOk: t.firstOk,
          anyOk: t.anyOk,
          failedFirst: t.failedFirst,
          recovered: t.recovered,
          attempts: t.attempts,
          okAttempts: t.okAttempts,
          retryExtraNs: t.retryExtraNs,
        });
        expect(got!.retryExtraCostUsd).toBeCloseTo(t.retryExtraCostUsd, 9);
      }
    }
  });

  it('counts outcomes and the gap decomposition per agent exactly', async () => {
    for (const projectId of projects) {
      const stats = await store.metrics.agentRunStats(filterFor(projectId, truth), DEFAULT_PRICES);
      for (const t of truth.agents.filter((a) => a.projectId === projectId)) {
        const got = stats.find((s) => s.agent === t.agent && s.service === t.service);
        expect(got, t.agent).toMatchObject({
          success: t.success,
          failure: t.failure,
          stepExplainedFailures: t.stepExplainedFailures,
          seamFailures: t.seamFailures,
          fallbackRecoveries: t.fallbackRecoveries,
        });
      }
      // incomplete runs have no root yet, so no agent: they are counted under ''
      const incomplete = truth.runs.filter((r) => r.projectId === projectId && r.outcome === 'incomplete').length;
      expect(stats.filter((s) => s.agent === '').reduce((n, s) => n + s.incomplete, 0)).toBe(incomplete);
    }
  });

  let reports: Map<string, ReliabilitySummary>;
  beforeAll(async () => {
    const analytics = new Analytics(store, { pricesFor: () => DEFAULT_PRICES });
    reports = new Map();
    for (const projectId of projects) reports.set(projectId, await analytics.reliability(filterFor(projectId, truth)));
  });

  it('reports each agent’s predicted success as Π p̂(s)^k̂(s) of the realised counts', () => {
    for (const t of truth.agents) {
      const agent = reports.get(t.projectId)!.agents.find((a) => a.agent === t.agent && a.service === t.service);
      expect(agent?.predicted.value, t.agent).toBeCloseTo(t.predictedRealized, 9);
    }
  });

  it('puts the generating probabilities inside the stated intervals', () => {
    let inside = 0;
    let checks = 0;
    for (const t of truth.steps) {
      if (t.groups < 30 || t.forcedGroups > 0) continue; // injected scenarios are forced, not drawn
      const step = reports.get(t.projectId)!.steps.find((s) => s.stepName === t.stepName);
      const rows = truth.steps.filter((s) => s.projectId === t.projectId && s.stepName === t.stepName);
      if (rows.length !== 1 || step === undefined) continue; // pooled across agents: no single generating value
      const p = t.generating.eventualSuccess;
      checks++;
      if (p >= step.eventualSuccess.low! && p <= step.eventualSuccess.high!) inside++;
      const half = (step.eventualSuccess.high! - step.eventualSuccess.low!) / 2;
      expect(Math.abs(p - step.eventualSuccess.value!), t.stepName).toBeLessThanOrEqual((half / 1.96) * Z_WIDE + 1e-9);
    }
    expect(checks).toBeGreaterThan(10);
    expect(inside / checks).toBeGreaterThanOrEqual(0.85); // 95% intervals: about 1 in 20 may miss
  });

  it('predicts ≈ 0.824 for the six-step ~97% pipeline, and the observed success agrees', () => {
    const pipeline = truth.agents.find((a) => a.agent === 'research-report')!;
    const report = reports.get(pipeline.projectId)!;
    const agent = report.agents.find((a) => a.agent === 'research-report')!;
    expect(pipeline.predictedTrue).toBeCloseTo(0.98 * 0.95 * 0.97 * 0.96 * 0.97 * 0.98, 3);
    expect(agent.predicted.value!).toBeGreaterThan(0.78);
    expect(agent.predicted.value!).toBeLessThan(0.87);
    expect(pipeline.predictedTrue).toBeGreaterThanOrEqual(agent.predicted.low!);
    expect(pipeline.predictedTrue).toBeLessThanOrEqual(agent.predicted.high!);
    // the observed rate's interval holds the prediction: this pipeline has no seam failures
    expect(agent.predicted.value!).toBeGreaterThanOrEqual(agent.observed.low!);
    expect(agent.predicted.value!).toBeLessThanOrEqual(agent.observed.high!);
  });

  it('gives the same numbers when spans arrive out of order and roots arrive late', async () => {
    const analytics = new Analytics(store, { pricesFor: () => DEFAULT_PRICES });
    for (const projectId of projects) {
      const scrambled = filterFor(projectId + SCRAMBLED, truth);
      expect(rounded(await analytics.reliability(scrambled))).toEqual(rounded(reports.get(projectId)));
      expect(rounded(await analytics.compoundingCurve(scrambled))).toEqual(
        rounded(await analytics.compoundingCurve(filterFor(projectId, truth))),
      );
    }
  });
});
