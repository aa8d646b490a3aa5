import { tableFromIPC, type Table } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { edgeCaseSpans } from '../../testing/edgeCaseSpans.js';
import { makeSpan } from '../../testing/makeSpan.js';
import { toSpanInsertRow, type SpanInsertRow } from '../spanRow.js';
import { nanosToDateTime64 } from '../../time.js';
import { encodeSpanRecordBatch } from './encodeSpanRecordBatch.js';
import {
  SPANS_ARROW_COLUMNS,
  SPANS_ARROW_SCHEMA_FINGERPRINT,
  SPANS_ARROW_SCHEMA_MESSAGE,
  SPANS_ARROW_SCHEMA_VERSION,
} from './spansArrowSchema.js';
import { spansArrowStream } from './spansArrowStream.js';

const T0 = 1_700_000_000_123_456_789n;

function read(messages: Uint8Array[]): Table {
  return tableFromIPC(Buffer.concat(spansArrowStream(messages)));
}

/** A timestamp column's raw int64 nanoseconds (apache-arrow's getters convert to milliseconds). */
function rawNanos(table: Table, path: (t: Table) => { data: ReadonlyArray<{ values: unknown }> }): bigint[] {
  return path(table).data.flatMap((d) => Array.from(d.values as BigInt64Array));
}

describe('encodeSpanRecordBatch (one Arrow IPC RecordBatch message per call)', () => {
  it("writes a stream apache-arrow reads, with the spans table's columns and types", () => {
    const spans = edgeCaseSpans('p', T0);
    const table = read([
      encodeSpanRecordBatch(spans.slice(0, 5)),
      encodeSpanRecordBatch([]),
      encodeSpanRecordBatch(spans.slice(5)),
    ]);
    expect(table.numRows).toBe(spans.length);
    expect(table.batches.map((b) => b.numRows)).toEqual([5, 0, spans.length - 5]);
    expect(table.schema.fields.map((f) => f.name)).toEqual(SPANS_ARROW_COLUMNS);
    const types = Object.fromEntries(
      table.schema.fields.map((f) => [f.name, `${String(f.type)}${f.nullable ? '?' : ''}`]),
    );
    expect(types).toMatchObject({
      project_id: 'Utf8',
      is_run_root: 'Bool',
      span_kind: 'Uint8',
      attempt: 'Uint16',
      input_tokens: 'Uint64',
      cost_usd: 'Float64?',
      start_time: 'Timestamp<NANOSECOND, UTC>',
      attributes: 'Map<{key:Utf8, value:Utf8}>',
      events: 'List<Struct<{time:Timestamp<NANOSECOND, UTC>, name:Utf8, attributes:Utf8}>>',
      links: 'List<Struct<{trace_id:Utf8, span_id:Utf8, trace_state:Utf8, attributes:Utf8}>>',
      dropped_links_count: 'Uint32',
    });
  });

  it('carries the values toSpanInsertRow gives the JSONEachRow path, column by column', () => {
    const spans = edgeCaseSpans('p', T0);
    const table = read([encodeSpanRecordBatch(spans)]);
    const rows: SpanInsertRow[] = spans.map(toSpanInsertRow);
    const starts = rawNanos(table, (t) => t.getChild('start_time')!);
    const ends = rawNanos(table, (t) => t.getChild('end_time')!);
    const eventTimes = rawNanos(table, (t) => t.getChild('events')!.getChildAt(0)!.getChildAt(0)!);
    let eventIndex = 0;
    rows.forEach((row, i) => {
      const got = table.get(i)!;
      for (const column of SPANS_ARROW_COLUMNS) {
        const value: unknown = got[column];
        switch (column) {
          case 'input_tokens':
          case 'output_tokens':
          case 'cached_input_tokens':
            expect(Number(value)).toBe(row[column]);
            break;
          case 'start_time':
            expect(nanosToDateTime64(starts[i]!)).toBe(row.start_time);
            break;
          case 'end_time':
            expect(nanosToDateTime64(ends[i]!)).toBe(row.end_time);
            break;
          case 'attributes':
          case 'attribute_types':
          case 'resource_attributes': {
            const entries = Array.from(value as Iterable<[string, string]>);
            // same entries in the same order as the JS object the JSON path serialises
            expect(entries).toEqual(Object.entries(row[column]));
            break;
          }
          case 'events': {
            const events = Array.from(value as Iterable<{ name: string; attributes: string }>, (e) => ({
              name: e.name,
              attributes: e.attributes,
            }));
            expect(events).toEqual(row.events.map((e) => ({ name: e.name, attributes: e.attributes })));
            for (const e of row.events) expect(nanosToDateTime64(eventTimes[eventIndex++]!)).toBe(e.time);
            break;
          }
          case 'links': {
            const links = Array.from(value as Iterable<{ toJSON(): unknown }>, (l) => l.toJSON());
            expect(links).toEqual(row.links);
            break;
          }
          default:
            expect(value, column).toEqual(row[column as keyof SpanInsertRow]);
        }
      }
    });
    expect(eventIndex).toBe(eventTimes.length);
  });

  it('returns a message that owns its buffer, 8-byte aligned, and leaves no state behind', () => {
    const a = encodeSpanRecordBatch([makeSpan({ startTimeUnixNano: T0, name: 'x'.repeat(100_000) })]);
    const b = encodeSpanRecordBatch([makeSpan({ startTimeUnixNano: T0, name: 'y' })]);
    for (const m of [a, b]) {
      expect(m.byteOffset).toBe(0);
      expect(m.buffer.byteLength).toBe(m.byteLength);
      expect(m.byteLength % 8).toBe(0);
    }
    const table = read([a, b]);
    expect(table.getChild('name')!.toArray()).toEqual(['x'.repeat(100_000), 'y']);
  });

  it('names its schema by version and fingerprint', () => {
    // a schema change changes the fingerprint: bump SPANS_ARROW_SCHEMA_VERSION with it, and pin both here
    expect({ version: SPANS_ARROW_SCHEMA_VERSION, fingerprint: SPANS_ARROW_SCHEMA_FINGERPRINT }).toEqual({
      version: 1,
      fingerprint: SPANS_ARROW_SCHEMA_FINGERPRINT_V1,
    });
    expect(SPANS_ARROW_SCHEMA_MESSAGE.byteLength % 8).toBe(0);
  });
});

const SPANS_ARROW_SCHEMA_FINGERPRINT_V1 = '27cfa1153dff1ef2';
