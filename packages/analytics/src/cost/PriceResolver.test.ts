import type { StoreRows } from '@telltale/store';
import { describe, expect, it } from 'vitest';
import type { ModelPrice } from './bundledPrices.js';
import { PriceResolver } from './PriceResolver.js';

const BUNDLED: ModelPrice[] = [
  { model: 'a', inputPerMTok: 1, cachedInputPerMTok: 0.5, outputPerMTok: 2, asOf: '2025-01-01', source: 'vendor' },
  { model: 'b', inputPerMTok: 3, cachedInputPerMTok: 1, outputPerMTok: 6, asOf: '2025-01-01', source: 'vendor' },
];
const override = (model: string, inputPerMTok: number): StoreRows.StoredModelPrice => ({
  model,
  inputPerMTok,
  cachedInputPerMTok: 0,
  outputPerMTok: 0,
  asOf: 'x',
  source: 'contract',
  updatedAtMs: 42,
});

describe('PriceResolver', () => {
  it('merges overrides over the bundled table: same name replaces, new names add', async () => {
    const r = new PriceResolver(() => Promise.resolve([override('b', 10), override('c', 7)]), { bundled: BUNDLED });
    const t = await r.table('p');
    expect(t.models).toEqual(['a', 'b', 'c']);
    expect(t.input.map((x) => x * 1e6)).toEqual([1, 10, 7]);
    const list = await r.list('p');
    expect(list.map((p) => [p.model, p.origin, p.inputPerMTok])).toEqual([
      ['a', 'bundled', 1],
      ['b', 'override', 10],
      ['c', 'override', 7],
    ]);
    expect(list[1]!.bundled?.inputPerMTok).toBe(3);
    expect(list[2]!.bundled).toBeUndefined();
    expect(list[2]!.updatedAtMs).toBe(42);
  });

  it('caches per project until invalidated or expired; failed loads are retried', async () => {
    let now = 0;
    const loads: string[] = [];
    let fail = true;
    const r = new PriceResolver(
      (projectId) => {
        loads.push(projectId);
        return projectId === 'bad' && fail ? Promise.reject(new Error('storage down')) : Promise.resolve([]);
      },
      { bundled: BUNDLED, ttlMs: 1000, now: () => now },
    );
    await Promise.all([r.table('p'), r.table('p'), r.table('q')]);
    expect(loads).toEqual(['p', 'q']);
    r.invalidate('p');
    await r.table('p');
    await r.table('q');
    expect(loads).toEqual(['p', 'q', 'p']);
    now = 1000;
    await r.table('q');
    expect(loads).toEqual(['p', 'q', 'p', 'q']);
    await expect(r.table('bad')).rejects.toThrow('storage down');
    fail = false;
    await expect(r.table('bad')).resolves.toMatchObject({ models: ['a', 'b'] });
  });
});
