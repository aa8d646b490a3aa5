import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../Store.js';
import { deleteModelPrice, listModelPrices, upsertModelPrice, type ModelPriceOverride } from './modelPrices.js';
import { clientOf } from '../internal/storeRunners.js';

const price = (model: string, inputPerMTok: number): ModelPriceOverride => ({
  model,
  inputPerMTok,
  cachedInputPerMTok: inputPerMTok / 10,
  outputPerMTok: inputPerMTok * 4,
  asOf: '2025-09-01',
  source: 'contract',
});

describe('model price overrides', () => {
  let dir: string;
  let store: Store;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'telltale-prices-'));
    store = await Store.open({ kind: 'embedded', dataDir: dir });
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('upserts, replaces, lists per project and deletes', async () => {
    const before = Date.now();
    await upsertModelPrice(clientOf(store), 'p1', price('gpt-4o', 2));
    await upsertModelPrice(clientOf(store), 'p1', price('in-house', 0.5));
    await upsertModelPrice(clientOf(store), 'p2', price('gpt-4o', 9));
    // the same model again, in the same millisecond: the later write wins
    await upsertModelPrice(clientOf(store), 'p1', price('gpt-4o', 3));

    const p1 = await listModelPrices(clientOf(store), 'p1');
    expect(p1.map(({ updatedAtMs: _, ...p }) => p)).toEqual([price('gpt-4o', 3), price('in-house', 0.5)]);
    expect(p1[0]!.updatedAtMs).toBeGreaterThanOrEqual(before);
    expect((await listModelPrices(clientOf(store), 'p2')).map((p) => p.inputPerMTok)).toEqual([9]);

    await deleteModelPrice(clientOf(store), 'p1', 'gpt-4o');
    expect((await listModelPrices(clientOf(store), 'p1')).map((p) => p.model)).toEqual(['in-house']);
    // deleting affects one project only, and a model can be set again after a delete
    expect((await listModelPrices(clientOf(store), 'p2')).map((p) => p.model)).toEqual(['gpt-4o']);
    await upsertModelPrice(clientOf(store), 'p1', price('gpt-4o', 4));
    expect((await listModelPrices(clientOf(store), 'p1')).map((p) => [p.model, p.inputPerMTok])).toEqual([
      ['gpt-4o', 4],
      ['in-house', 0.5],
    ]);
  });

  it('survives merges (the replacing engine keeps the newest row)', async () => {
    await clientOf(store).command({ query: 'OPTIMIZE TABLE model_prices FINAL' });
    expect((await listModelPrices(clientOf(store), 'p1')).map((p) => [p.model, p.inputPerMTok])).toEqual([
      ['gpt-4o', 4],
      ['in-house', 0.5],
    ]);
  });

  it('rejects nonsense prices', async () => {
    await expect(upsertModelPrice(clientOf(store), 'p1', price('', 1))).rejects.toThrow(
      expect.objectContaining({ code: 'BAD_REQUEST' }),
    );
    await expect(upsertModelPrice(clientOf(store), 'p1', price('m', -1))).rejects.toThrow(
      expect.objectContaining({ code: 'BAD_REQUEST' }),
    );
    await expect(
      upsertModelPrice(clientOf(store), 'p1', { ...price('m', 1), outputPerMTok: Number.NaN }),
    ).rejects.toThrow(expect.objectContaining({ code: 'BAD_REQUEST' }));
  });
});
