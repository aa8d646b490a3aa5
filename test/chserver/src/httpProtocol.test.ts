import { connect } from 'node:net';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import {
  ClickHouseError,
  ClickHouseLogLevel,
  TupleParam,
  createClient,
  type ClickHouseClient,
} from '@clickhouse/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChServer, type ChServerProcess } from './index.js';

/*
 * The real @clickhouse/client against the chserver process over real HTTP:
 * parameters of every type the store binds, per-query settings, output
 * formats, compression, errors with ClickHouse's codes, and inserts whose
 * bodies chDB's inline path would cut at a blank line.
 */

const MAX_DATA_BYTES = 2_000_000;
/** The failures here are on purpose: keep the client's error log quiet. */
const quiet = { log: { level: ClickHouseLogLevel.OFF } };

async function streamBytes(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks);
}

async function rejection(p: Promise<unknown>): Promise<ClickHouseError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err, 'the request fails with a ClickHouseError').toBeInstanceOf(ClickHouseError);
  return err as ClickHouseError;
}

describe('chserver speaks ClickHouse HTTP to @clickhouse/client', () => {
  let server: ChServerProcess;
  let client: ClickHouseClient;

  const rows = async <T>(
    query: string,
    query_params?: Record<string, unknown>,
    clickhouse_settings?: Record<string, string | number>,
  ): Promise<T[]> =>
    (
      await client.query({
        query,
        format: 'JSONEachRow',
        ...(query_params ? { query_params } : {}),
        ...(clickhouse_settings ? { clickhouse_settings } : {}),
      })
    ).json<T>();

  beforeAll(async () => {
    server = await startChServer({ args: ['--max-data-bytes', String(MAX_DATA_BYTES)] });
    // As the store's remote client is configured: compressed responses.
    client = createClient({ url: server.url, compression: { request: false, response: true }, ...quiet });
  });
  afterAll(async () => {
    await client?.close();
    await server?.dispose();
  });

  it('answers pings, both kinds', async () => {
    expect((await client.ping()).success).toBe(true);
    expect((await client.ping({ select: true })).success).toBe(true);
    const res = await fetch(`${server.url}/ping`);
    expect([res.status, await res.text()]).toEqual([200, 'Ok.\n']);
  });

  it('binds parameters of every type as a server parses them', async () => {
    const tricky = "tab\tnew\nline 'quote' back\\slash";
    const [row] = await rows<Record<string, unknown>>(
      `SELECT {s:String} AS s, {arr:Array(String)} AS arr, toString({big:Int64}) AS big, {ts:DateTime64(9, 'UTC')} AS ts,
              {date:DateTime64(3, 'UTC')} AS date, {none:Nullable(String)} AS none, {m:Map(String, String)} AS m,
              {t:Tuple(Int32, String)} AS t, {flag:Bool} AS flag, {f:Float64} AS f, {empty:Array(String)} AS empty`,
      {
        s: tricky,
        arr: ["it's", 'a\\b', 'c\nd', ''],
        big: -9_223_372_036_854_775_808n,
        ts: '2024-02-29 23:59:59.123456789',
        date: new Date(Date.UTC(2024, 0, 2, 3, 4, 5, 678)),
        none: null,
        m: { "k'1": 'v\\1' },
        t: new TupleParam([7, "x'y"]),
        flag: true,
        f: 0.1,
        empty: [],
      },
    );
    expect(row).toEqual({
      s: tricky,
      arr: ["it's", 'a\\b', 'c\nd', ''],
      big: '-9223372036854775808',
      ts: '2024-02-29 23:59:59.123456789',
      date: '2024-01-02 03:04:05.678',
      none: null,
      m: { "k'1": 'v\\1' },
      t: [7, "x'y"],
      flag: true,
      f: 0.1,
      empty: [],
    });
  });

  it('refuses a placeholder its request did not bind, even one an earlier request bound', async () => {
    await rows('SELECT {stale:String} AS v', { stale: 'earlier' });
    const err = await rejection(client.query({ query: 'SELECT {stale:String} AS v', format: 'JSONEachRow' }));
    expect([err.code, err.type]).toEqual(['456', 'UNKNOWN_QUERY_PARAMETER']);
  });

  it('sends long parameters in the URL, and multipart bodies when asked to', async () => {
    const many = Array.from({ length: 3_000 }, (_, i) => `value-${i}`);
    const [viaUrl] = await rows<{ n: number; last: string }>(
      'SELECT length({many:Array(String)}) AS n, {many:Array(String)}[-1] AS last',
      { many },
    );
    expect(viaUrl).toEqual({ n: 3_000, last: 'value-2999' });
    const multipart = createClient({ url: server.url, use_multipart_params: true, ...quiet });
    try {
      const rs = await multipart.query({
        query: 'SELECT {a:String} AS a, length({many:Array(String)}) AS n',
        format: 'JSONEachRow',
        query_params: { a: 'x\ny', many },
      });
      expect(await rs.json()).toEqual([{ a: 'x\ny', n: 3_000 }]);
    } finally {
      await multipart.close();
    }
  });

  it('applies settings to their query only', async () => {
    const q =
      "SELECT toInt64(42) AS i, getSetting('max_threads') AS threads, getSetting('enable_materialized_cte') AS cte";
    const [base] = await rows<Record<string, unknown>>(q);
    const [set] = await rows<Record<string, unknown>>(q, undefined, {
      output_format_json_quote_64bit_integers: 1,
      max_threads: 1,
      enable_materialized_cte: 1,
    });
    const [after] = await rows<Record<string, unknown>>(q);
    // ClickHouse ≥ 25.8 (chDB is 26.x) no longer quotes 64-bit integers in JSON by default.
    expect(base).toMatchObject({ i: 42, cte: false });
    expect(set).toEqual({ i: '42', threads: 1, cte: true });
    expect(after).toEqual(base);
    const err = await rejection(rows('SELECT 1', undefined, { no_such_setting: 1 }));
    expect([err.code, err.type]).toEqual(['115', 'UNKNOWN_SETTING']);
  });

  it('puts the session back after SET and USE statements, and honours the database parameter', async () => {
    await client.command({ query: 'SET max_threads = 1' });
    await client.command({ query: 'CREATE DATABASE IF NOT EXISTS other' });
    await client.command({ query: 'USE other' });
    expect(await rows("SELECT currentDatabase() AS db, getSetting('max_threads') != 1 AS reset")).toEqual([
      { db: 'default', reset: 1 },
    ]);
    const inOther = createClient({ url: server.url, database: 'other', ...quiet });
    try {
      expect(
        await (await inOther.query({ query: 'SELECT currentDatabase() AS db', format: 'JSONEachRow' })).json(),
      ).toEqual([{ db: 'other' }]);
    } finally {
      await inOther.close();
    }
    expect(await rows('SELECT currentDatabase() AS db')).toEqual([{ db: 'default' }]);
  });

  it('answers in the format the query asks for, with the headers a server sends', async () => {
    const json = await (
      await client.query({ query: "SELECT 1 AS a, 'x' AS b", format: 'JSON' })
    ).json<{ a: number; b: string }>();
    expect(json.meta).toEqual([
      { name: 'a', type: 'UInt8' },
      { name: 'b', type: 'String' },
    ]);
    expect(json.data).toEqual([{ a: 1, b: 'x' }]);
    expect(
      await (
        await client.query({ query: 'SELECT number, toString(number) FROM numbers(2)', format: 'JSONCompactEachRow' })
      ).json(),
    ).toEqual([
      [0, '0'],
      [1, '1'],
    ]);
    expect(
      await (await client.query({ query: 'SELECT number, number * 2 FROM numbers(2)', format: 'TabSeparated' })).text(),
    ).toBe('0\t0\n1\t2\n');
    expect(await (await client.query({ query: "SELECT 'a,b' AS s", format: 'CSV' })).text()).toBe('"a,b"\n');

    const res = await fetch(`${server.url}/?enable_http_compression=1&query_id=q-1`, {
      method: 'POST',
      body: 'SELECT number FROM numbers(3) FORMAT JSONEachRow',
      headers: { 'Accept-Encoding': 'gzip' },
    });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(res.headers.get('x-clickhouse-query-id')).toBe('q-1');
    expect(res.headers.get('x-clickhouse-format')).toBe('JSONEachRow');
    expect(JSON.parse(res.headers.get('x-clickhouse-summary')!)).toMatchObject({ result_rows: '3', written_rows: '0' });
    expect(await res.text()).toBe('{"number":0}\n{"number":1}\n{"number":2}\n');
    const plain = await fetch(`${server.url}/`, {
      method: 'POST',
      body: 'SELECT 1',
      headers: { 'Accept-Encoding': 'gzip' },
    });
    expect([plain.headers.get('content-encoding'), await plain.text()]).toEqual([null, '1\n']);
  });

  it('raises ClickHouse errors with their codes and HTTP statuses', async () => {
    const syntax = await rejection(client.query({ query: 'SELEC 1' }));
    // The client takes the first "(UPPERCASE)" as the type: here "(SELEC)" in the message, as against a server.
    expect([syntax.code, syntax.message]).toEqual(['62', 'Syntax error: failed at position 1 ']);
    const table = await rejection(client.query({ query: 'SELECT * FROM no_such_table' }));
    expect([table.code, table.type]).toEqual(['60', 'UNKNOWN_TABLE']);
    const multi = await rejection(client.command({ query: 'SELECT 1; SELECT 2' }));
    expect([multi.code, multi.message]).toEqual([
      '62',
      'Syntax error (Multi-statements are not allowed): failed at position 11. ',
    ]);

    const res = await fetch(`${server.url}/`, { method: 'POST', body: 'SELECT * FROM no_such_table' });
    expect(res.status).toBe(404);
    expect(res.headers.get('x-clickhouse-exception-code')).toBe('60');
    expect(await res.text()).toMatch(
      /^Code: 60\. DB::Exception: .*\. \(UNKNOWN_TABLE\) \(version 26\.\d+[^)]*\(chserver over chDB\)\)\n$/,
    );
    expect((await fetch(`${server.url}/`, { method: 'POST', body: "SELECT toDate('nope')" })).status).toBe(400);
    expect((await fetch(`${server.url}/nowhere`)).status).toBe(404);
  });

  describe('inserts', () => {
    beforeAll(async () => {
      await client.command({
        query: `CREATE TABLE docs (id UInt32, body String, at DateTime64(9, 'UTC'))
                ENGINE = MergeTree ORDER BY id SETTINGS non_replicated_deduplication_window = 100`,
      });
    });

    const ids = async (from: number, to: number): Promise<Array<{ id: number; body: string }>> =>
      rows('SELECT id, body FROM docs WHERE id BETWEEN {from:UInt32} AND {to:UInt32} ORDER BY id', { from, to });

    it('lands JSONEachRow bodies with blank lines between rows and newlines in values', async () => {
      const body =
        '{"id":1,"body":"a\\n\\nb","at":"2024-01-01 00:00:00.000000001"}\n\n\n{"id":2,"body":"\\n\\n","at":"2024-01-01 00:00:00"}\n';
      await client.exec({ query: 'INSERT INTO docs FORMAT JSONEachRow', values: Readable.from([Buffer.from(body)]) });
      await client.insert({
        table: 'docs',
        values: [{ id: 3, body: 'x\n\ny', at: '2024-01-01 00:00:00' }],
        format: 'JSONEachRow',
      });
      expect(await ids(1, 3)).toEqual([
        { id: 1, body: 'a\n\nb' },
        { id: 2, body: '\n\n' },
        { id: 3, body: 'x\n\ny' },
      ]);
      const summary = await client.insert({
        table: 'docs',
        values: [{ id: 4, body: '', at: '2024-01-01 00:00:00' }],
        format: 'JSONEachRow',
      });
      expect(summary.summary?.written_rows).toBe('1');
    });

    it('lands binary bodies whole, whatever bytes they hold', async () => {
      const text = 'two\n\nnewlines and \u00e9\u4e2d';
      const utf8 = Buffer.from(text);
      // RowBinary: UInt32 LE, String as LEB128 length + bytes, DateTime64(9) as Int64 LE.
      const row = Buffer.concat([Buffer.from([10, 0, 0, 0]), Buffer.from([utf8.length]), utf8, Buffer.alloc(8)]);
      await client.exec({ query: 'INSERT INTO docs FORMAT RowBinary', values: Readable.from([row]) });
      expect(await ids(10, 10)).toEqual([{ id: 10, body: text }]);
      // The same from a gzip request body.
      const gz = createClient({ url: server.url, compression: { request: true, response: true }, ...quiet });
      try {
        await gz.insert({
          table: 'docs',
          values: [{ id: 11, body: 'zipped\n\n', at: '2024-01-01 00:00:00' }],
          format: 'JSONEachRow',
        });
      } finally {
        await gz.close();
      }
      expect(await ids(11, 11)).toEqual([{ id: 11, body: 'zipped\n\n' }]);
    });

    it('lands an ArrowStream body once per deduplication token', async () => {
      const arrow = await streamBytes(
        (
          await client.exec({
            query:
              "SELECT toUInt32(100 + number) AS id, repeat('\n', number % 3) AS body, toDateTime64(number, 9, 'UTC') AS at FROM numbers(500) FORMAT ArrowStream",
          })
        ).stream,
      );
      expect(arrow.includes('\n\n'), 'the Arrow bytes hold a blank line').toBe(true);
      const insert = (token: string) =>
        client.exec({
          query: 'INSERT INTO docs FORMAT ArrowStream',
          values: Readable.from([arrow]),
          clickhouse_settings: { insert_deduplication_token: token },
        });
      await insert('arrow-1');
      await insert('arrow-1');
      const [counts] = await rows<{ n: number; newlines: number }>(
        'SELECT count() AS n, sum(length(body)) AS newlines FROM docs WHERE id BETWEEN 100 AND 599',
      );
      expect(counts).toEqual({ n: 500, newlines: [0, 1, 2].reduce((s, k) => s + k * Math.ceil((500 - k) / 3), 0) });
      await insert('arrow-2');
      expect(await rows('SELECT count() AS n FROM docs WHERE id BETWEEN 100 AND 599')).toEqual([{ n: 1000 }]);
    });

    it('lands inline data sent in the body with the query', async () => {
      await client.command({
        query:
          'INSERT INTO docs FORMAT JSONEachRow\n{"id":20,"body":"p\\n\\nq","at":"2024-01-01 00:00:00"}\n\n{"id":21,"body":"r","at":"2024-01-01 00:00:00"}',
      });
      await client.command({ query: "INSERT INTO docs VALUES (22, 's\n\nt', '2024-01-01 00:00:00')" });
      expect(await ids(20, 22)).toEqual([
        { id: 20, body: 'p\n\nq' },
        { id: 21, body: 'r' },
        { id: 22, body: 's\n\nt' },
      ]);
    });

    it('fails a bad body without landing part of it, and refuses bodies over the limit', async () => {
      const bad = await rejection(
        client.exec({
          query: 'INSERT INTO docs FORMAT JSONEachRow',
          values: Readable.from([Buffer.from('{"id":30,"body":"ok","at":"2024-01-01 00:00:00"}\n{"id":"x"}\n')]),
        }),
      );
      expect(bad.type).toMatch(
        /^(INCORRECT_DATA|CANNOT_PARSE_INPUT_ASSERTION_FAILED|CANNOT_PARSE_NUMBER|CANNOT_PARSE_TEXT)$/,
      );
      expect(await ids(30, 30)).toEqual([]);
      const big = Buffer.alloc(MAX_DATA_BYTES + 1, 0x20);
      const tooLarge = await rejection(
        client.exec({ query: 'INSERT INTO docs FORMAT JSONEachRow', values: Readable.from([big]) }),
      );
      expect(tooLarge.type).toBe('QUERY_IS_TOO_LARGE');
      expect((await client.ping()).success).toBe(true);
    });
  });

  it('serves many concurrent requests, each with its own parameters and settings', async () => {
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        rows<{ i: number; threads: number }>(
          "SELECT {i:UInt32} AS i, getSetting('max_threads') AS threads",
          { i },
          { max_threads: (i % 4) + 1 },
        ),
      ),
    );
    expect(results.map((r) => r[0])).toEqual(Array.from({ length: 60 }, (_, i) => ({ i, threads: (i % 4) + 1 })));
  });

  it('survives garbage: broken gzip, bad URLs, malformed HTTP', async () => {
    const broken = await fetch(`${server.url}/?query=INSERT%20INTO%20docs%20FORMAT%20JSONEachRow`, {
      method: 'POST',
      body: Buffer.from('not gzip'),
      headers: { 'Content-Encoding': 'gzip' },
    });
    expect(broken.status).toBeGreaterThanOrEqual(400);
    expect(await broken.text()).toMatch(/^Code: \d+\. DB::Exception: /);
    const unknownEncoding = await fetch(`${server.url}/?query=SELECT%201`, {
      method: 'POST',
      body: gzipSync('x'),
      headers: { 'Content-Encoding': 'lzma' },
    });
    expect(unknownEncoding.status).toBe(501);
    expect((await fetch(`${server.url}/?param_bad-name=1`, { method: 'POST', body: 'SELECT 1' })).status).toBe(400);
    await new Promise<void>((resolve) => {
      const socket = connect(server.port, '127.0.0.1', () => socket.end('NOT HTTP AT ALL\r\n\r\n'));
      socket.on('close', () => resolve());
      socket.on('error', () => resolve());
      socket.resume();
    });
    expect((await client.ping()).success).toBe(true);
    expect(server.running).toBe(true);
  });
});
