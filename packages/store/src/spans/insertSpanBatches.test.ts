import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../Store.js';
import { edgeCaseSpans } from '../testing/edgeCaseSpans.js';
import { makeSpan } from '../testing/makeSpan.js';
import { buildRun } from '../testing/runBuilder.js';
import { encodeSpanRecordBatch } from './arrow/encodeSpanRecordBatch.js';
import { insertSpansJson } from './insertSpansJson.js';
import { SPANS_ARROW_COLUMNS } from './arrow/spansArrowSchema.js';
import type { SpanRecord } from './SpanRecord.js';
import { clientOf } from '../internal/storeRunners.js';

const T0 = BigInt(Date.now() - 3_600_000) * 1_000_000n + 123_456_789n;

/** Every stored column but the project and the insert time, maps' key order made visible, in span order. */
async function storedRows(store: Store, projectId: string): Promise<Record<string, unknown>[]> {
  const result = await clientOf(store).query({
    query: `SELECT * EXCEPT (project_id, ingested_at), duration_ns,
              mapKeys(attributes) AS attribute_keys, mapKeys(attribute_types) AS type_keys, mapKeys(resource_attributes) AS resource_keys,
              toTypeName(events) AS events_type
            FROM spans WHERE project_id = {projectId:String} ORDER BY span_id, start_time`,
    format: 'JSONEachRow',
    query_params: { projectId },
  });
  return result.json<Record<string, unknown>>();
}

async function count(store: Store, projectId: string): Promise<number> {
  const result = await clientOf(store).query({
    query: 'SELECT count() AS n FROM spans WHERE project_id = {projectId:String}',
    format: 'JSONEachRow',
    query_params: { projectId },
  });
  const [row] = await result.json<{ n: string }>();
  return Number(row?.n);
}

function runsOf(spans: readonly SpanRecord[]): Array<{ projectId: string; runId: string }> {
  return spans.map((s) => ({ projectId: s.projectId, runId: s.runId }));
}

/** Splits spans into record batch messages of the given sizes (cycled), each encoded on its own. */
function encodeInBatches(spans: readonly SpanRecord[], sizes: readonly number[]): Uint8Array[] {
  const messages: Uint8Array[] = [];
  for (let i = 0, k = 0; i < spans.length; k++) {
    const n = sizes[k % sizes.length]!;
    messages.push(encodeSpanRecordBatch(spans.slice(i, i + n)));
    i += n;
  }
  return messages;
}

describe('Store.insertSpanBatches (Arrow record batches through one ArrowStream insert, embedded chDB)', () => {
  let dir: string;
  let stagingDir: string;
  let store: Store;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'telltale-arrow-'));
    stagingDir = mkdtempSync(join(tmpdir(), 'telltale-arrow-staging-'));
    store = await Store.open({ kind: 'embedded', dataDir: dir }, { arrowTempDir: stagingDir });
    // 1970 and 2100 spans are outside the TTL: keep merges from dropping them while we compare
    await clientOf(store).command({ query: 'SYSTEM STOP MERGES spans' });
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
    rmSync(stagingDir, { recursive: true, force: true });
  });

  it('lists exactly the insert columns of the spans table, in table order', async () => {
    const result = await clientOf(store).query({
      query: `SELECT name FROM system.columns WHERE database = currentDatabase() AND table = 'spans' AND default_kind = '' ORDER BY position`,
      format: 'JSONEachRow',
    });
    expect((await result.json<{ name: string }>()).map((r) => r.name)).toEqual(SPANS_ARROW_COLUMNS);
  });

  it('stores exactly what the JSONEachRow path stores, edge cases included, from many messages in one insert', async () => {
    const viaJson = edgeCaseSpans('rt-json', T0);
    const viaArrow = edgeCaseSpans('rt-arrow', T0);
    await insertSpansJson(clientOf(store), viaJson);
    // uneven batches, an empty one among them: each message encoded separately, inserted once
    const messages = encodeInBatches(viaArrow, [1, 0, 3, 7, 2]);
    expect(messages.length).toBeGreaterThan(8);
    await store.insertSpanBatches(messages, runsOf(viaArrow));

    const json = await storedRows(store, 'rt-json');
    const arrow = await storedRows(store, 'rt-arrow');
    expect(json).toHaveLength(viaJson.length);
    expect(arrow).toEqual(json);
    // spot checks that the comparison sees what it should
    const byId = new Map(arrow.map((r) => [r.span_id, r]));
    expect(byId.get('s0008')).toMatchObject({
      start_time: '2023-11-14 22:13:20.123456789',
      end_time: '2023-11-14 22:13:20.999999999',
      cost_usd: 123456.789,
    });
    expect(byId.get('s0009')).toMatchObject({ start_time: '1973-03-03 09:46:40.000000001', duration_ns: 999999998 });
    expect(byId.get('s0010')).toMatchObject({
      start_time: '2100-01-01 00:00:00.999999999',
      end_time: '2100-01-01 00:00:01.123456789',
    });
    expect(byId.get('s0007')).toMatchObject({
      input_tokens: 9007199254740991,
      output_tokens: 4294967296,
      cached_input_tokens: 4294967295,
    });
    expect((byId.get('s0004')?.attributes as Record<string, string>).huge).toHaveLength(5 * 1024 * 1024);
    expect(byId.get('s0005')).toMatchObject({
      attribute_keys: ['2', '10', 'a', 'b', '01'],
      type_keys: ['2', 'b'],
      resource_keys: ['7', 'r'],
    });
    expect((byId.get('s0011')?.events as unknown[]).length).toBe(50);
    expect((byId.get('s0011')?.links as unknown[]).length).toBe(30);
    expect(byId.get('s0002')?.attributes).toMatchObject({
      big: '9223372036854775807',
      'beyond 2^53': '9007199254740993',
      bytes: 'AAEC/f7/',
      null: '',
    });
  });

  it("stores what the JSONEachRow path cannot: the epoch's first nanosecond, and a lone surrogate as U+FFFD", async () => {
    const spans = [
      makeSpan({ projectId: 'arrow-only', startTimeUnixNano: 1n, endTimeUnixNano: 2n, spanId: 'a' }),
      makeSpan({
        projectId: 'arrow-only',
        startTimeUnixNano: T0,
        spanId: 'b',
        name: 'half \ud83d pair',
        attributes: [{ key: 'k\udc00', value: '\ud800' }],
      }),
    ];
    await store.insertSpanBatches([encodeSpanRecordBatch(spans)], runsOf(spans));
    const rows = await storedRows(store, 'arrow-only');
    expect(rows.map((r) => [r.start_time, r.duration_ns, r.name, r.attributes])).toEqual([
      ['1970-01-01 00:00:00.000000001', 1, 'span', {}],
      [expect.any(String), 1000, 'half \ufffd pair', { 'k\ufffd': '\ufffd' }],
    ]);
  });

  it('is done with each message before it takes the next: a source reusing one buffer stores every span', async () => {
    // small messages (gathered into one write) and ones above 64 KiB (written as they are), in turn
    const spansOf = (projectId: string): SpanRecord[] =>
      Array.from({ length: 760 }, (_, i) =>
        makeSpan({
          projectId,
          startTimeUnixNano: T0 + BigInt(i),
          spanId: `r${String(i).padStart(4, '0')}`,
          attributes: [{ key: 'note', value: `span ${i} `.repeat(20) }],
        }),
      );
    const sizes = [1, 300, 2, 3, 250, 1, 200];
    const want = encodeInBatches(spansOf('reuse-ref'), sizes);
    expect(Math.max(...want.map((m) => m.byteLength))).toBeGreaterThan(64 * 1024);
    await store.insertSpanBatches(want, runsOf(spansOf('reuse-ref')));
    const messages = encodeInBatches(spansOf('reuse'), sizes);
    const shared = new Uint8Array(Math.max(...messages.map((m) => m.byteLength)));
    async function* reusing(): AsyncGenerator<Uint8Array> {
      for (const m of messages) {
        await new Promise((resolve) => setImmediate(resolve)); // a read, as the spool's
        shared.fill(0xee); // what a message left behind is garbage once the next is taken
        shared.set(m);
        yield shared.subarray(0, m.byteLength);
      }
    }
    await store.insertSpanBatches(reusing(), runsOf(spansOf('reuse')));
    expect(await count(store, 'reuse')).toBe(760);
    expect(await storedRows(store, 'reuse')).toEqual(await storedRows(store, 'reuse-ref'));
  });

  it('inserts a repeated token once, a different token again', async () => {
    const spans = Array.from({ length: 100 }, (_, i) =>
      makeSpan({ projectId: 'dedup', startTimeUnixNano: T0 + BigInt(i), spanId: `d${i}` }),
    );
    const messages = encodeInBatches(spans, [30]);
    await store.insertSpanBatches(messages, runsOf(spans), { deduplicationToken: 'spool-1:0-4' });
    await store.insertSpanBatches(messages, runsOf(spans), { deduplicationToken: 'spool-1:0-4' });
    expect(await count(store, 'dedup')).toBe(100);
    await store.insertSpanBatches(messages, runsOf(spans), { deduplicationToken: 'spool-1:5-9' });
    expect(await count(store, 'dedup')).toBe(200);
    // the token stays with its statement: a later insert of other spans without one is stored
    const others = spans.map((s) => ({ ...s, spanId: `e${s.spanId}` }));
    await store.insertSpanBatches([encodeSpanRecordBatch(others)], runsOf(others));
    expect(await count(store, 'dedup')).toBe(300);
  });

  it('Store.insertSpans goes the same way: a token dedups its own insert and sticks to no later one', async () => {
    const batch = (prefix: string): SpanRecord[] =>
      Array.from({ length: 5 }, (_, i) =>
        makeSpan({ projectId: 'rows', startTimeUnixNano: T0, spanId: `${prefix}${i}` }),
      );
    const first = batch('a');
    await store.insertSpans(first, { deduplicationToken: 'rows-1' });
    await store.insertSpans(first, { deduplicationToken: 'rows-1' });
    await store.insertSpans(batch('b'));
    await store.insertSpans(batch('c'));
    expect(await count(store, 'rows')).toBe(15);
  });

  it('rejects a token it would have to escape, before touching the storage', async () => {
    const messages = [encodeSpanRecordBatch([makeSpan({ projectId: 'bad-token', startTimeUnixNano: T0 })])];
    await expect(store.insertSpanBatches(messages, [], { deduplicationToken: "x' OR 1" })).rejects.toThrow(
      expect.objectContaining({ code: 'BAD_REQUEST' }),
    );
    await expect(store.insertSpanBatches(messages, [], { deduplicationToken: '' })).rejects.toThrow(
      expect.objectContaining({ code: 'BAD_REQUEST' }),
    );
    expect(await count(store, 'bad-token')).toBe(0);
  });

  it('removes its staging file after an insert, and after a failed one', async () => {
    const messages = [encodeSpanRecordBatch([makeSpan({ projectId: 'staging', startTimeUnixNano: T0 })])];
    await store.insertSpanBatches(messages, []);
    expect(readdirSync(stagingDir)).toEqual([]);
    await clientOf(store).command({ query: 'RENAME TABLE spans TO spans_away' });
    try {
      await expect(store.insertSpanBatches(messages, [])).rejects.toThrow(/spans/);
    } finally {
      await clientOf(store).command({ query: 'RENAME TABLE spans_away TO spans' });
    }
    expect(readdirSync(stagingDir)).toEqual([]);
    expect(await count(store, 'staging')).toBe(1);
  });

  it('makes the runs of the batches pending, and they finalise', async () => {
    const a = buildRun({
      runId: 'fa',
      projectId: 'facts',
      startNs: T0,
      steps: [
        { kind: 'plan', name: 'plan' },
        { kind: 'tool', name: 'search' },
      ],
    });
    const b = buildRun({
      runId: 'fb',
      projectId: 'facts',
      startNs: T0,
      withRoot: false,
      steps: [{ kind: 'plan', name: 'plan' }],
    });
    const pendingBefore = store.runFacts.pendingRuns();
    await store.insertSpanBatches([encodeSpanRecordBatch(a), encodeSpanRecordBatch(b)], runsOf([...a, ...b]));
    expect(store.runFacts.pendingRuns()).toBe(pendingBefore + 2);
    await store.runFacts.flush('facts');
    const result = await clientOf(store).query({
      query: "SELECT run_id, outcome, steps FROM run_facts FINAL WHERE project_id = 'facts' ORDER BY run_id",
      format: 'JSONEachRow',
    });
    const rows = await result.json<{ run_id: string; outcome: string; steps: number | string }>();
    expect(rows.map((r) => ({ ...r, steps: Number(r.steps) }))).toEqual([
      { run_id: 'fa', outcome: 'success', steps: 2 },
      { run_id: 'fb', outcome: 'incomplete', steps: 1 },
    ]);
  });

  it('does nothing for no messages, and stores nothing for empty ones', async () => {
    await store.insertSpanBatches([], []);
    const before = await count(store, 'staging');
    await store.insertSpanBatches([encodeSpanRecordBatch([]), encodeSpanRecordBatch([])], []);
    await store.insertSpans([]);
    expect(await count(store, 'staging')).toBe(before);
    expect(readdirSync(stagingDir)).toEqual([]);
  });
});
