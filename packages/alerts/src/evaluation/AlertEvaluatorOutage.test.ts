import type { Store } from '@telltale/store';
import { describe, expect, it } from 'vitest';
import { AlertEvaluator } from './AlertEvaluator.js';

/** A store whose first `ok` alert repository calls answer no rows, and every later one fails (ClickHouse went away). */
function storeFailingAfter(ok: number): { store: Store; queries: () => number } {
  let n = 0;
  const query = (): Promise<unknown> =>
    ++n <= ok ? Promise.resolve([]) : Promise.reject(new Error('ClickHouse is down'));
  const alerts = new Proxy({}, { get: () => query });
  return { store: { alerts } as unknown as Store, queries: () => n };
}

describe('AlertEvaluator when storage becomes unreachable', () => {
  it('reports every failed tick and keeps ticking (no unhandled rejection takes the server down)', async () => {
    const errors: unknown[] = [];
    const { store, queries } = storeFailingAfter(2); // load: rules and states
    const evaluator = new AlertEvaluator({
      store,
      measure: () => Promise.reject(new Error('unused')),
      dashboardUrl: 'http://d',
      tickMs: 5,
      onError: (err) => errors.push(err),
    });
    await evaluator.start();
    await new Promise((r) => setTimeout(r, 100));
    await evaluator.stop();
    expect(queries()).toBeGreaterThan(4);
    expect(errors.length).toBeGreaterThan(2);
    expect(String(errors[0])).toContain('ClickHouse is down');
  });

  it('a live event never rejects; its failure goes to onError', async () => {
    const errors: unknown[] = [];
    const { store } = storeFailingAfter(0);
    const evaluator = new AlertEvaluator({
      store,
      measure: () => Promise.reject(new Error('unused')),
      dashboardUrl: 'http://d',
      onError: (err) => errors.push(err),
    });
    await expect(
      evaluator.raise({
        projectId: 'p',
        kind: 'loop',
        groupKey: 'run:1',
        status: 'firing',
        value: 3,
        atMs: 0,
        labels: {},
      }),
    ).resolves.toBeUndefined();
    expect(errors).toHaveLength(1);
  });
});
