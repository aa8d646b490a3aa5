import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../Store.js';
import type { SpanRecord } from '../spans/SpanRecord.js';
import { shuffled, spanAt } from '../testing/spanAt.js';
import { EMPTY_PRICE_TABLE, type AnalyticsFilter } from './AnalyticsFilter.js';
import { type TailStepRow } from './tailAttributionQuery.js';

const MS = 1_000_000;
const T0 = BigInt(Date.now() - 3_600_000) * 1_000_000n;

/**
 * 20 completed runs of `agent`. Runs 0..18 (root 100 + i ms): plan [0, 20],
 * search [20, 50], answer [50, end]. Run 19 (root 210 ms) is the tail:
 * search [20, 150] holds two overlapping `fetch` tool calls [30, 100] and
 * [60, 120] (union 90 ms: search's self time is 130 − 90 = 40), answer
 * [150, 200], a step-less `http` span [200, 204] under the root, and 6 ms of
 * the root itself. Plus an incomplete run (no root, 10 s) that must not count.
 */
function dataset(projectId: string): SpanRecord[] {
  const spans: SpanRecord[] = [];
  const p = { projectId };
  for (let i = 0; i < 19; i++) {
    const run = `run-${i}`;
    const o = T0 + BigInt(i) * 1_000_000_000n;
    const end = 100 + i;
    spans.push(spanAt(o, run, 'root', '', 'run', 'agent', 0, end, p));
    spans.push(spanAt(o, run, 'a', 'root', 'plan', 'plan', 0, 20, p));
    spans.push(spanAt(o, run, 'b', 'root', 'tool', 'search', 20, 50, p));
    spans.push(spanAt(o, run, 'c', 'root', 'act', 'answer', 50, end, p));
  }
  const o = T0 + 19n * 1_000_000_000n;
  spans.push(
    spanAt(o, 'run-19', 'root', '', 'run', 'agent', 0, 210, p),
    spanAt(o, 'run-19', 'a', 'root', 'plan', 'plan', 0, 20, p),
    spanAt(o, 'run-19', 'b', 'root', 'act', 'search', 20, 150, p),
    spanAt(o, 'run-19', 'f1', 'b', 'tool', 'fetch', 30, 100, p),
    spanAt(o, 'run-19', 'f2', 'b', 'tool', 'fetch', 60, 120, p),
    spanAt(o, 'run-19', 'c', 'root', 'act', 'answer', 150, 200, p),
    spanAt(o, 'run-19', 'h', 'root', '', 'http', 200, 204, p),
  );
  spans.push(spanAt(T0, 'lost', 'x', 'gone', 'act', 'answer', 0, 10_000, p));
  return spans;
}

const byName = (steps: TailStepRow[]): Record<string, TailStepRow> =>
  Object.fromEntries(steps.map((s) => [s.kind === 'step' ? s.stepName : `(${s.kind})`, s]));

describe('tail attribution query', () => {
  let dir: string;
  let store: Store;
  const filter: AnalyticsFilter = {
    projectId: 'p1',
    fromUnixNano: T0 - 1n,
    toUnixNano: BigInt(Date.now()) * 1_000_000n,
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'telltale-tail-'));
    store = await Store.open({ kind: 'embedded', dataDir: dir });
    await store.insertSpans(dataset('p1'));
    const mixed = shuffled(dataset('p2'), 11);
    for (let i = 0; i < 4; i++) await store.insertSpans(mixed.filter((_, j) => j % 4 === i));
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('finds the thresholds and the tail and median-band runs', async () => {
    const t = await store.metrics.tailAttribution(filter, EMPTY_PRICE_TABLE);
    // sorted durations 100..118, 210: nearest ranks ⌈p·20⌉ = 20 (p99), 9 (p45), 10 (p50), 11 (p55)
    expect(t).toMatchObject({
      completedRuns: 20,
      p99Ns: 210 * MS,
      p45Ns: 108 * MS,
      p50Ns: 109 * MS,
      p55Ns: 110 * MS,
      tailRuns: 1,
      medianRuns: 3,
    });
    expect(t.tailRunNs).toBe(210 * MS);
    expect(t.medianRunNs).toBe((108 + 109 + 110) * MS);
  });

  it('sums self time per step without double-subtracting overlapping children', async () => {
    const steps = byName((await store.metrics.tailAttribution(filter, EMPTY_PRICE_TABLE)).steps);
    expect(steps.search).toEqual({ stepName: 'search', kind: 'step', tailSelfNs: 40 * MS, medianSelfNs: 90 * MS });
    expect(steps.fetch).toEqual({ stepName: 'fetch', kind: 'step', tailSelfNs: 130 * MS, medianSelfNs: 0 });
    expect(steps.plan).toMatchObject({ tailSelfNs: 20 * MS, medianSelfNs: 60 * MS });
    // median runs 108, 109, 110 ms: answer lasts end − 50
    expect(steps.answer).toMatchObject({ tailSelfNs: 50 * MS, medianSelfNs: (58 + 59 + 60) * MS });
    // the step-less http span, and the root's own 210 − (20 + 130 + 50 + 4) = 6 ms
    expect(steps['(other)']).toEqual({ stepName: '', kind: 'other', tailSelfNs: 4 * MS, medianSelfNs: 0 });
    expect(steps['(run)']).toEqual({ stepName: '', kind: 'run', tailSelfNs: 6 * MS, medianSelfNs: 0 });
    expect(Object.keys(steps).sort()).toEqual(['(other)', '(run)', 'answer', 'fetch', 'plan', 'search']);
  });

  it('clips children to their parent', async () => {
    const spans = [
      spanAt(T0, 'clip', 'root', '', 'run', 'solo', 0, 100, { projectId: 'p3' }),
      spanAt(T0, 'clip', 'w', 'root', 'act', 'write', 50, 90, { projectId: 'p3' }),
      // [45, 60] covers [50, 60] of write; [85, 95] covers [85, 90]; [91, 99] none of it
      spanAt(T0, 'clip', 'k1', 'w', 'llm', 'think', 45, 60, { projectId: 'p3' }),
      spanAt(T0, 'clip', 'k2', 'w', 'llm', 'think', 85, 95, { projectId: 'p3' }),
      spanAt(T0, 'clip', 'k3', 'w', 'llm', 'think', 91, 99, { projectId: 'p3' }),
      // a child with a parent that never arrived: its own time only
      spanAt(T0, 'clip', 'z', 'ghost', 'tool', 'late', 10, 12, { projectId: 'p3' }),
    ];
    await store.insertSpans(spans);
    const t = await store.metrics.tailAttribution({ ...filter, projectId: 'p3' }, EMPTY_PRICE_TABLE);
    // one run: it is the tail, and the tail takes precedence over the median band
    expect(t).toMatchObject({ completedRuns: 1, tailRuns: 1, medianRuns: 0, tailRunNs: 100 * MS, medianRunNs: 0 });
    const steps = byName(t.steps);
    expect(steps.write!.tailSelfNs).toBe(25 * MS);
    expect(steps.think!.tailSelfNs).toBe((15 + 10 + 8) * MS);
    expect(steps.late!.tailSelfNs).toBe(2 * MS);
    // the root: 100 − write's 40 (the grandchildren do not count against it)
    expect(steps['(run)']!.tailSelfNs).toBe(60 * MS);
    expect(steps.write!.medianSelfNs).toBe(0);
  });

  it('merges contained, touching and same-start children once', async () => {
    const p = { projectId: 'p4' };
    await store.insertSpans([
      spanAt(T0, 'merge', 'root', '', 'run', 'solo', 0, 100, p),
      spanAt(T0, 'merge', 'm', 'root', 'act', 'merge', 0, 100, p),
      // union within [0, 100]: [10, 60] ∪ [90, 100] = 60 ms
      spanAt(T0, 'merge', 'k1', 'm', 'tool', 'part', 10, 50, p),
      spanAt(T0, 'merge', 'k2', 'm', 'tool', 'part', 10, 30, p),
      spanAt(T0, 'merge', 'k3', 'm', 'tool', 'part', 20, 30, p),
      spanAt(T0, 'merge', 'k4', 'm', 'tool', 'part', 50, 60, p),
      spanAt(T0, 'merge', 'k5', 'm', 'tool', 'part', 55, 58, p),
      spanAt(T0, 'merge', 'k6', 'm', 'tool', 'part', 90, 120, p),
    ]);
    const steps = byName(
      (await store.metrics.tailAttribution({ ...filter, projectId: 'p4' }, EMPTY_PRICE_TABLE)).steps,
    );
    expect(steps.merge!.tailSelfNs).toBe(40 * MS);
    expect(steps.part!.tailSelfNs).toBe((40 + 20 + 10 + 10 + 3 + 30) * MS);
    expect(steps['(run)']!.tailSelfNs).toBe(0);
  });

  it('selects runs by the filters', async () => {
    const none = await store.metrics.tailAttribution({ ...filter, agent: 'nobody' }, EMPTY_PRICE_TABLE);
    expect(none).toEqual({
      completedRuns: 0,
      p99Ns: 0,
      p45Ns: 0,
      p50Ns: 0,
      p55Ns: 0,
      tailRuns: 0,
      medianRuns: 0,
      tailRunNs: 0,
      medianRunNs: 0,
      steps: [],
    });
    // runs with a fetch call: only run 19
    const fetchRuns = await store.metrics.tailAttribution({ ...filter, stepName: 'fetch' }, EMPTY_PRICE_TABLE);
    expect(fetchRuns).toMatchObject({ completedRuns: 1, p99Ns: 210 * MS, tailRuns: 1, medianRuns: 0 });
    expect(byName(fetchRuns.steps).fetch).toMatchObject({ tailSelfNs: 130 * MS, medianSelfNs: 0 });
    const plain = await store.metrics.tailAttribution({ ...filter, stepName: 'answer' }, EMPTY_PRICE_TABLE);
    expect(plain).toMatchObject({ completedRuns: 20, tailRuns: 1, medianRuns: 3 });
  });

  it('gives identical numbers when the spans arrive shuffled in several batches', async () => {
    const inOrder = await store.metrics.tailAttribution(filter, EMPTY_PRICE_TABLE);
    const mixed = await store.metrics.tailAttribution({ ...filter, projectId: 'p2' }, EMPTY_PRICE_TABLE);
    expect(mixed).toEqual(inOrder);
    expect(inOrder.steps.length).toBe(6);
  });
});
