import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Store, type AnalyticsFilter } from '@telltale/store';
import { LOOP_KINDS, type LoopThresholds, FAILURE_CAUSES } from '@telltale/semconv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PRICES } from './defaultPrices.js';
import { generateDataset, type Dataset } from './generateDataset.js';
import { shuffleForDelivery } from './shuffleForDelivery.js';
import { smallDataset } from './smallDataset.js';

/*
 * Loop detections and failure causes from the store's SQL against the
 * generator's truth: every injected loop with its count, first span,
 * wasted time and cost; no other run flagged; one correct primary cause per
 * failed run; and the same answers when the spans arrive shuffled.
 */
const END = 1_900_000_000_000_000_000n;

describe('loops and failure causes against the dataset truth', () => {
  let dir: string;
  let store: Store;
  let data: Dataset;
  let projects: string[];
  let thresholds: LoopThresholds;
  const filterOf = (projectId: string): AnalyticsFilter => ({
    projectId,
    fromUnixNano: data.truth.startNs,
    toUnixNano: data.truth.endNs + 1n,
  });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'telltale-loop-truth-'));
    store = await Store.open({ kind: 'embedded', dataDir: dir });
    data = generateDataset(smallDataset({ runs: 2_000, endNs: END }));
    const t = data.truth.thresholds;
    thresholds = {
      repeat: t.repeatThreshold,
      pingPongCycles: t.pingPongCycles,
      runawayMultiplier: t.runawayMultiplier,
      runawayHardCap: t.runawayHardCap,
    };
    projects = [...new Set(data.spans.map((s) => s.projectId))].sort();
    await store.insertSpans(data.spans);
    // the same spans again under other project ids, in delivery order (shuffled, roots late, many batches)
    for (const batch of shuffleForDelivery(
      data.spans.map((s) => ({ ...s, projectId: `late-${s.projectId}` })),
      3,
      { batchSize: [500, 3_000] },
    )) {
      await store.insertSpans(batch);
    }
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('finds every injected loop with its evidence, and flags no other run', async () => {
    const prices = DEFAULT_PRICES;
    let checked = 0;
    for (const projectId of projects) {
      const page = await store.metrics.loopPage(filterOf(projectId), prices, thresholds, { limit: 100_000, offset: 0 });
      const got = page.detections
        .map((d) => `${d.runId} ${d.variant} ${d.count} ${d.anchorSpanId} ${d.wastedNs} ${d.wastedCostUsd.toFixed(9)}`)
        .sort();
      const want = data.truth.runs
        .filter((r) => r.projectId === projectId)
        .flatMap((r) =>
          r.loops.map(
            (l) =>
              `${r.runId} ${l.variant} ${l.count} ${l.evidenceSpanIds[0]} ${l.wastedNs} ${l.wastedCostUsd.toFixed(9)}`,
          ),
        )
        .sort();
      expect(got).toEqual(want);
      checked += want.length;
    }
    // the small preset injects every kind
    const kinds = new Set(data.truth.runs.flatMap((r) => r.loops.map((l) => l.kind)));
    expect([...kinds].sort()).toEqual([...LOOP_KINDS].sort());
    expect(checked).toBeGreaterThan(50);
  });

  it('counts flagged runs per kind as the truth does', async () => {
    const prices = DEFAULT_PRICES;
    for (const projectId of projects) {
      const page = await store.metrics.loopPage(filterOf(projectId), prices, thresholds, { limit: 1, offset: 0 });
      const runs = data.truth.runs.filter((r) => r.projectId === projectId);
      for (const kind of LOOP_KINDS) {
        expect(page.byKind[kind].runsFlagged, `${projectId} ${kind}`).toBe(
          runs.filter((r) => r.loops.some((l) => l.kind === kind)).length,
        );
      }
      const flags = await store.metrics.runLoopFlags(filterOf(projectId), prices, thresholds);
      expect(flags.map((f) => f.runId).sort()).toEqual(
        runs
          .filter((r) => r.loops.length > 0)
          .map((r) => r.runId)
          .sort(),
      );
    }
  });

  it('gives each failed run its true primary cause', async () => {
    const prices = DEFAULT_PRICES;
    const causesSeen = new Set<string>();
    for (const projectId of projects) {
      const causes = await store.metrics.runCauses(filterOf(projectId), prices, thresholds);
      const want = data.truth.runs
        .filter((r) => r.projectId === projectId && r.outcome === 'failure')
        .map((r) => ({ runId: r.runId, cause: r.primaryCause }))
        .sort((a, b) => (a.runId < b.runId ? -1 : 1));
      expect(causes).toEqual(want);
      for (const c of causes) causesSeen.add(c.cause);
      const counts = await store.metrics.failureCauses(filterOf(projectId), prices, thresholds);
      for (const cause of FAILURE_CAUSES)
        expect(counts[cause], cause).toBe(want.filter((w) => w.cause === cause).length);
    }
    // every cause occurs in the small preset
    expect([...causesSeen].sort()).toEqual([...FAILURE_CAUSES].sort());
  });

  it('answers the same when the spans arrived shuffled and late', async () => {
    const prices = DEFAULT_PRICES;
    for (const projectId of projects) {
      const a = await store.metrics.loopPage(filterOf(projectId), prices, thresholds, { limit: 100_000, offset: 0 });
      const b = await store.metrics.loopPage(filterOf(`late-${projectId}`), prices, thresholds, {
        limit: 100_000,
        offset: 0,
      });
      expect(b).toEqual(a);
      expect(await store.metrics.runCauses(filterOf(`late-${projectId}`), prices, thresholds)).toEqual(
        await store.metrics.runCauses(filterOf(projectId), prices, thresholds),
      );
    }
  });
});
