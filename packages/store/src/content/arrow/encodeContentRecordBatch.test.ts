import { tableFromIPC, type Table } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { END_OF_STREAM } from '../../spans/arrow/ipcMessage.js';
import type { SpanContentRecord } from '../SpanContentRecord.js';
import { readStoredHalf } from '../storedHalf.js';
import { encodeContentRecordBatch } from './encodeContentRecordBatch.js';
import {
  CONTENT_ARROW_COLUMNS,
  CONTENT_ARROW_SCHEMA_FINGERPRINT,
  CONTENT_ARROW_SCHEMA_MESSAGE,
  CONTENT_ARROW_SCHEMA_VERSION,
} from './contentArrowSchema.js';

const T0 = 1_700_000_000_123_456_789n;

function read(messages: Uint8Array[]): Table {
  return tableFromIPC(Buffer.concat([CONTENT_ARROW_SCHEMA_MESSAGE, ...messages, END_OF_STREAM]));
}

function record(i: number, over: Partial<SpanContentRecord> = {}): SpanContentRecord {
  return {
    projectId: i % 2 === 0 ? 'p' : 'projé',
    traceId: i.toString(16).padStart(32, '0'),
    spanId: i.toString(16).padStart(16, '0'),
    runId: `run-${i}`,
    startTimeUnixNano: T0 + BigInt(i),
    input: { messages: [{ role: 'user', content: `question ${i} ✓` }] },
    output: { text: `answer ${i}`, toolResult: '{"ok":true}' },
    truncated: i % 3 === 0,
    originalBytes: i === 1 ? 2 ** 40 + 7 : 100 + i,
    capture: i % 2 === 0 ? 'full' : '',
    redactions: i,
    ...over,
  };
}

describe('encodeContentRecordBatch (one Arrow IPC RecordBatch message of span_content rows)', () => {
  it("writes a stream apache-arrow reads, with the span_content table's columns and types", () => {
    const rows = Array.from({ length: 7 }, (_, i) => record(i));
    const table = read([
      encodeContentRecordBatch(rows.slice(0, 3)),
      encodeContentRecordBatch([]),
      encodeContentRecordBatch(rows.slice(3)),
    ]);
    expect(table.numRows).toBe(7);
    expect(table.batches.map((b) => b.numRows)).toEqual([3, 0, 4]);
    expect(table.schema.fields.map((f) => f.name)).toEqual(CONTENT_ARROW_COLUMNS);
    const types = Object.fromEntries(table.schema.fields.map((f) => [f.name, String(f.type)]));
    expect(types).toEqual({
      project_id: 'Utf8',
      trace_id: 'Utf8',
      span_id: 'Utf8',
      start_time: 'Timestamp<NANOSECOND, UTC>',
      input: 'Utf8',
      output: 'Utf8',
      truncated: 'Bool',
      original_bytes: 'Uint64',
      capture: 'Utf8',
      redactions: 'Uint32',
    });
    const starts = table.getChild('start_time')!.data.flatMap((d) => Array.from(d.values as BigInt64Array));
    rows.forEach((r, i) => {
      const got = table.get(i)!;
      expect(got.project_id).toBe(r.projectId);
      expect(got.trace_id).toBe(r.traceId);
      expect(got.span_id).toBe(r.spanId);
      expect(starts[i]).toBe(r.startTimeUnixNano);
      // each half is its JSON, as the JSONEachRow path stored it
      expect(got.input).toBe(JSON.stringify(r.input));
      expect(got.output).toBe(JSON.stringify(r.output));
      expect(got.truncated).toBe(r.truncated);
      expect(Number(got.original_bytes)).toBe(r.originalBytes);
      expect(got.capture).toBe(r.capture);
      expect(got.redactions).toBe(r.redactions);
    });
  });

  it('writes a verbatim message list as received, and it reads back as messages', () => {
    const json = JSON.stringify([
      { role: 'user', parts: [{ type: 'text', content: 'é'.repeat(300) }] },
      { role: 'assistant', parts: [{ type: 'tool_call', id: 'c', name: 't', arguments: { a: 1 } }] },
    ]);
    const table = read([
      encodeContentRecordBatch([record(0, { input: { verbatim: { shape: 'genAiMessages', json } }, output: {} })]),
    ]);
    const stored = table.get(0)!.input as string;
    expect(stored.endsWith(json)).toBe(true);
    expect(readStoredHalf(stored)).toEqual({
      messages: [
        { role: 'user', content: 'é'.repeat(300) },
        { role: 'assistant', content: '{"type":"tool_call","id":"c","name":"t","arguments":{"a":1}}' },
      ],
    });
    expect(table.get(0)!.output).toBe('{}');
  });

  it('returns a message that owns its buffer, 8-byte aligned, and keeps no state between calls', () => {
    const big = encodeContentRecordBatch([record(0, { input: { text: 'x'.repeat(200_000) } })]);
    const small = encodeContentRecordBatch([record(1)]);
    for (const m of [big, small]) {
      expect(m.byteOffset).toBe(0);
      expect(m.buffer.byteLength).toBe(m.byteLength);
      expect(m.byteLength % 8).toBe(0);
    }
    const table = read([big, small]);
    expect(table.getChild('input')!.toArray()).toEqual([
      JSON.stringify({ text: 'x'.repeat(200_000) }),
      JSON.stringify(record(1).input),
    ]);
  });

  it('names its schema by version and fingerprint', () => {
    // a schema change changes the fingerprint: bump CONTENT_ARROW_SCHEMA_VERSION (and the spool payload version) with it
    expect({ version: CONTENT_ARROW_SCHEMA_VERSION, fingerprint: CONTENT_ARROW_SCHEMA_FINGERPRINT }).toEqual({
      version: 1,
      fingerprint: CONTENT_ARROW_SCHEMA_FINGERPRINT_V1,
    });
    expect(CONTENT_ARROW_SCHEMA_MESSAGE.byteLength % 8).toBe(0);
  });
});

const CONTENT_ARROW_SCHEMA_FINGERPRINT_V1 = '786de37fe51631f4';
