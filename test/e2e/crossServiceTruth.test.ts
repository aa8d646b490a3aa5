import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Analytics } from '@telltale/analytics';
import {
  DEFAULT_PRICES,
  DOWNSTREAM_SERVICE,
  crossServiceVariant,
  generateDataset,
  shuffleForDelivery,
  smallDataset,
} from '@telltale/datasets';
import { Store, type SpanRecord, type StoreRows } from '@telltale/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const SCRAMBLED = '-scrambled';
const close = (actual: number | null | undefined, expected: number, what: string): void => {
  expect(Math.abs((actual ?? Number.NaN) - expected), `${what}: ${actual} vs ${expected}`).toBeLessThan(1e-9);
};
const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);

/**
 * The truth dataset with 30% of its runs crossing services (their tool spans
 * recorded by a downstream service without run ids, stored under the trace
 * id): run counts, outcomes, success rates and cost per run are the
 * generator's truth, in order and in scrambled delivery.
 */
// The first query finalises every run of the dataset, moving the downstream spans into their runs:
// tens of seconds on a loaded 2-core machine, so the bound is generous rather than tight.
describe('cross-service runs against the generator truth', { timeout: 120_000 }, () => {
  const { spans: original, truth } = generateDataset(smallDataset());
  const { spans, crossRunIds } = crossServiceVariant(original, 0.3);
  const projects = [...new Set(truth.runs.map((r) => r.projectId))];
  let dir: string;
  let store: Store;
  let analytics: Analytics;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'telltale-crosstruth-'));
    store = await Store.open({ kind: 'embedded', dataDir: dir });
    await store.insertSpans(spans);
    for (const batch of shuffleForDelivery(spans, 7))
      await store.insertSpans(batch.map((s): SpanRecord => ({ ...s, projectId: s.projectId + SCRAMBLED })));
    analytics = new Analytics(store, { pricesFor: () => DEFAULT_PRICES });
  });
  afterAll(async () => {
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('crosses 30% of the runs, with spans stored under their trace id', () => {
    expect(crossRunIds.length).toBe(Math.ceil(truth.runs.length * 0.3));
    expect(spans.filter((s) => s.serviceName === DOWNSTREAM_SERVICE && s.runId === s.traceId).length).toBeGreaterThan(
      crossRunIds.length - 1,
    );
  });

  it('lists exactly the true runs, each with its true outcome, spans and cost', async () => {
    for (const projectId of projects) {
      const expected = truth.runs.filter((r) => r.projectId === projectId);
      for (const stored of [projectId, projectId + SCRAMBLED]) {
        const filter = { projectId: stored, fromUnixNano: truth.startNs, toUnixNano: truth.endNs + 1n };
        const { runs, total } = await analytics.listRuns(filter, { limit: 10_000, offset: 0 });
        expect(total, stored).toBe(expected.length);
        const byId = new Map<string, StoreRows.RunSummary>(runs.map((r) => [r.runId, r]));
        for (const t of expected) {
          const got = byId.get(t.runId);
          expect(got, t.runId).toBeDefined();
          expect({ outcome: got!.outcome, spans: got!.spans }, t.runId).toEqual({
            outcome: t.outcome,
            spans: t.spanCount,
          });
          close(got!.costUsd, t.costUsd, `${stored}/${t.runId} cost`);
        }
        // the downstream service filters the runs it took part in
        const crossed = expected.filter((r) => crossRunIds.includes(r.runId)).map((r) => r.runId);
        const byService = await analytics.listRuns(
          { ...filter, service: DOWNSTREAM_SERVICE },
          { limit: 10_000, offset: 0 },
        );
        expect(byService.runs.map((r) => r.runId).sort()).toEqual(crossed.sort());
      }
    }
  });

  it('counts true success rates and cost per run', async () => {
    for (const projectId of projects) {
      const runs = truth.runs.filter((r) => r.projectId === projectId);
      const success = runs.filter((r) => r.outcome === 'success');
      const failed = runs.filter((r) => r.outcome === 'failure');
      for (const stored of [projectId, projectId + SCRAMBLED]) {
        const filter = { projectId: stored, fromUnixNano: truth.startNs, toUnixNano: truth.endNs + 1n };
        const c = await analytics.cost(filter);
        expect(c.runs).toMatchObject({ total: runs.length, success: success.length, failure: failed.length });
        close(c.totalUsd, sum(runs.map((r) => r.costUsd)), 'total');
        close(c.perSuccessfulRunUsd, sum(success.map((r) => r.costUsd)) / success.length, 'per successful run');
      }
    }
  });
});
