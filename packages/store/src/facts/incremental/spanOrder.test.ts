import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../../Store.js';
import { clientOf } from '../../internal/storeRunners.js';
import { SPAN_KEY } from '../../sql/loopSql.js';
import { spanKeyOf } from './spanOrder.js';

describe('spanKeyOf', () => {
  let dir: string;
  let store: Store;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'telltale-spankey-'));
    store = await Store.open({ kind: 'embedded', dataDir: dir }, { reconcile: false });
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('equals the engine key of 16-digit span ids, longer ids and upper-case digits', async () => {
    let seed = 11;
    const next = (): number => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648);
    const hex = (n: number): string => Array.from({ length: n }, () => (next() % 16).toString(16)).join('');
    const ids = ['0000000000000000', 'ffffffffffffffff', '8000000000000000', '00000000000000ff', 'ABCDEF0123456789'];
    for (let i = 0; i < 50; i++) ids.push(hex(16), hex(32));
    const result = await clientOf(store).query({
      query: `SELECT arrayMap(span_id -> toString(${SPAN_KEY}), {ids:Array(String)}) AS keys`,
      query_params: { ids },
      format: 'JSONEachRow',
    });
    const [row] = await result.json<{ keys: string[] }>();
    expect(ids.map((id) => spanKeyOf(id).toString())).toEqual(row?.keys);
  });

  it('gives 0 for an empty id and for one that is not hex', () => {
    expect(spanKeyOf('')).toBe(0n);
    expect(spanKeyOf('00000000000000zz')).toBe(0n);
    expect(spanKeyOf('abc')).toBe(0xabcn);
  });
});
