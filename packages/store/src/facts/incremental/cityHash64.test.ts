import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../../Store.js';
import { clientOf } from '../../internal/storeRunners.js';
import { cityHash64 } from './cityHash64.js';

/** Strings of every length class CityHash treats apart (0–16, 17–32, 33–64, longer), UTF-8 included. */
function samples(): string[] {
  const out: string[] = ['', 'a', 'ab', 'abc', 'search', 'tool_name', 'é', '工具调用'];
  let seed = 7;
  const next = (): number => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648);
  for (let len = 1; len <= 200; len += len < 70 ? 1 : 13) {
    let s = '';
    for (let i = 0; i < len; i++) s += String.fromCharCode(32 + (next() % 95));
    out.push(s);
  }
  return out;
}

describe('cityHash64 (ClickHouse-compatible)', () => {
  let dir: string;
  let store: Store;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'telltale-cityhash-'));
    store = await Store.open({ kind: 'embedded', dataDir: dir }, { reconcile: false });
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('equals the engine for one and two arguments of every length class', async () => {
    const xs = samples();
    const ys = xs.map((x, i) => xs[(i * 7 + 3) % xs.length] ?? x);
    const result = await clientOf(store).query({
      query: `SELECT arrayMap(x -> toString(cityHash64(x)), {xs:Array(String)}) AS one,
        arrayMap((x, y) -> toString(cityHash64(x, y)), {xs:Array(String)}, {ys:Array(String)}) AS two`,
      query_params: { xs, ys },
      format: 'JSONEachRow',
    });
    const [row] = await result.json<{ one: string[]; two: string[] }>();
    expect(xs.map((x) => cityHash64(x).toString())).toEqual(row?.one);
    expect(xs.map((x, i) => cityHash64(x, ys[i] ?? '').toString())).toEqual(row?.two);
  });
});
