import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ClickHouseClient } from '@clickhouse/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClickHouseClient } from '../../client.js';
import { insertStagedFile } from '../../insertTransport.js';
import { RowBinaryWriter } from './RowBinaryWriter.js';

const COLUMNS = `s String, lc LowCardinality(String), n UInt32, big UInt64, huge UInt64, i Int64, f Float64, t DateTime64(9, 'UTC'),
  strs Array(String), nums Array(UInt64), tup Array(Tuple(k UInt8, v String, w Int64))`;

describe('RowBinaryWriter', () => {
  let dir: string;
  let client: ClickHouseClient;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rowbinary-'));
    client = createClickHouseClient({ kind: 'embedded', dataDir: join(dir, 'data') });
    await client.command({ query: `CREATE TABLE t (row UInt32, ${COLUMNS}) ENGINE = MergeTree ORDER BY row` });
  });
  afterAll(async () => {
    await client?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes rows the engine reads back as written: long and multibyte strings, 64-bit numbers, arrays, tuples', async () => {
    const texts = ['', 'plain', 'é—🙂 ünïcödé', 'x'.repeat(127), 'y'.repeat(128), 'z'.repeat(20_000), '🙂'.repeat(50)];
    // a small first buffer: the rows outgrow it many times
    const w = new RowBinaryWriter(16);
    texts.forEach((text, row) => {
      w.row();
      w.u32(row);
      w.str(text);
      w.str(`kind-${row % 2}`);
      w.u32(4_000_000_000);
      w.u64(2 ** 53 - 1);
      w.u64n(18_446_744_073_709_551_615n);
      w.i64n(-9_223_372_036_854_775_808n + BigInt(row));
      w.f64(row === 0 ? Number.NaN : row / 3);
      w.i64n(1_764_230_000_123_456_789n);
      w.strs([text, 'b']);
      w.u64s([0, 1, 2 ** 40]);
      w.len(2);
      for (const k of [1, 2]) {
        w.u8(k);
        w.str(text.slice(0, k * 100));
        w.i64n(BigInt(-k));
      }
    });
    expect(w.rows).toBe(texts.length);
    const all = new Uint8Array(w.length);
    const starts = w.copyTo(all);
    expect(starts).toHaveLength(texts.length + 1);
    expect(starts[0]).toBe(0);
    expect(starts.at(-1)).toBe(all.length);
    // rows are whole: the last two rows alone insert on their own
    await insertStagedFile(client, dir, `INSERT INTO t`, 'RowBinary', [all.subarray(0, starts[5])]);
    await insertStagedFile(client, dir, `INSERT INTO t`, 'RowBinary', [all.subarray(starts[5])]);

    const got = await (
      await client.query({
        query: `SELECT *, toString(t) AS t_text, isNaN(f) AS nan FROM t ORDER BY row
                SETTINGS output_format_json_quote_64bit_integers = 1`,
        format: 'JSONEachRow',
      })
    ).json<Record<string, unknown>>();
    expect(got.map((r) => r.s)).toEqual(texts);
    expect(got.map((r) => r.lc)).toEqual(texts.map((_, row) => `kind-${row % 2}`));
    expect(got[6]).toMatchObject({
      n: 4_000_000_000,
      big: String(2 ** 53 - 1),
      huge: '18446744073709551615',
      i: String(-9_223_372_036_854_775_808n + 6n),
      f: 2,
      t_text: '2025-11-27 07:53:20.123456789',
      strs: [texts[6], 'b'],
      nums: ['0', '1', String(2 ** 40)],
      tup: [
        { k: 1, v: texts[6]!.slice(0, 100), w: '-1' },
        { k: 2, v: texts[6]!.slice(0, 200), w: '-2' },
      ],
    });
    expect(got[0]?.nan).toBe(1);
  });

  it('starts over after reset, keeping its buffer', () => {
    const w = new RowBinaryWriter(8);
    w.row();
    w.str('a'.repeat(300));
    w.reset();
    expect([w.rows, w.length]).toEqual([0, 0]);
    w.row();
    w.u8(7);
    const out = new Uint8Array(w.length);
    expect([...w.copyTo(out)]).toEqual([0, 1]);
    expect([...out]).toEqual([7]);
  });

  it('writes a string repeated row after row as often as it comes, across growth and reset', () => {
    const expected = (xs: readonly string[]): number[] =>
      xs.flatMap((x) => {
        const bytes = [...Buffer.from(x, 'utf8')];
        return bytes.length < 0x80
          ? [bytes.length, ...bytes]
          : [(bytes.length & 0x7f) | 0x80, bytes.length >> 7, ...bytes];
      });
    const texts = [
      'gpt-4o',
      'gpt-4o',
      'gpt-4o',
      '',
      '',
      'é🙂',
      'é🙂',
      'x'.repeat(127),
      'x'.repeat(127),
      'y'.repeat(128),
    ];
    const sequence = [...texts, 'y'.repeat(128), 'gpt-4o', 'gpt-4o'];
    // a small first buffer: repeats are copied while it grows under them
    const w = new RowBinaryWriter(4);
    w.row();
    w.strs(sequence);
    const out = new Uint8Array(w.length);
    w.copyTo(out);
    expect([...out]).toEqual([sequence.length, ...expected(sequence)]);
    // after a reset the bytes of the string before are gone: written anew
    w.reset();
    w.row();
    w.u8(0xff);
    w.str('gpt-4o');
    const again = new Uint8Array(w.length);
    w.copyTo(again);
    expect([...again]).toEqual([0xff, ...expected(['gpt-4o'])]);
  });
});
