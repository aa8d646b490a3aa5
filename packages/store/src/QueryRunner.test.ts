import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMPTY_PRICE_TABLE, type AnalyticsFilter } from './analytics/AnalyticsFilter.js';
import type { QueryEvent } from './QueryRunner.js';
import { Store } from './Store.js';
import { buildRun } from './testing/runBuilder.js';

const NOW = BigInt(Date.now()) * 1_000_000n;
const T0 = NOW - 3_600_000_000_000n;

describe('Store.open onQuery', () => {
  let dir: string;
  let store: Store;
  const events: QueryEvent[] = [];
  const filter: AnalyticsFilter = { projectId: 'pq', fromUnixNano: T0 - 1n, toUnixNano: NOW };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'telltale-onquery-'));
    store = await Store.open({ kind: 'embedded', dataDir: dir }, { onQuery: (e) => events.push(e) });
    await store.insertSpans([
      ...buildRun({ projectId: 'pq', runId: 'a', startNs: T0, steps: [{ kind: 'tool', name: 'search' }] }),
      ...buildRun({
        projectId: 'pq',
        runId: 'b',
        startNs: T0 + 10_000_000n,
        steps: [
          { kind: 'tool', name: 'search' },
          { kind: 'llm', name: 'answer' },
        ],
      }),
    ]);
  });

  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('names each repository operation and counts the rows it returned', async () => {
    events.length = 0;
    const steps = await store.metrics.stepGroupStats(filter, EMPTY_PRICE_TABLE);
    const rules = await store.alerts.listAlertRules('pq');
    expect(steps.map((s) => s.stepName).sort()).toEqual(['answer', 'search']);
    expect(rules).toEqual([]);
    expect(events.map((e) => [e.operation, e.rowsReturned, e.error])).toEqual([
      ['metrics.stepGroupStats', 2, undefined],
      ['alerts.listAlertRules', 0, undefined],
    ]);
    for (const e of events) expect(e.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('reports a failed operation with its error, and the caller still gets the rejection', async () => {
    events.length = 0;
    await expect(store.metrics.costSeries(filter, EMPTY_PRICE_TABLE, 0)).rejects.toThrow(
      expect.objectContaining({ code: 'BAD_REQUEST' }),
    );
    expect(events).toHaveLength(1);
    expect(events[0]?.operation).toBe('metrics.costSeries');
    expect(events[0]?.error).toMatchObject({ code: 'BAD_REQUEST' });
  });
});
