import {
  Data,
  DataType,
  Field,
  Int64,
  List,
  makeBuilder,
  makeData,
  RecordBatch,
  Struct,
  Table,
  tableFromIPC,
  tableToIPC,
  type Builder,
  type Schema,
  type Vector,
} from 'apache-arrow';
import { encodeSpanRecordBatch, spansArrowStream, type SpanRecord } from '@telltale/store/encode';
import { toSpanInsertRow, type SpanInsertRow } from '@telltale/store/testing';

/** One writer's cost and output on the same rows. */
export interface WriterFigures {
  /** CPU time per span on this thread, µs (best of the repeats). */
  usPerSpan: number;
  /** Bytes of the whole ArrowStream (schema, record batches, end marker). */
  streamBytes: number;
}

export interface ArrowWriterComparison {
  spans: number;
  batchSpans: number;
  repeats: number;
  handWritten: WriterFigures;
  /** apache-arrow's builders, from the rows the JSON insert path takes (their conversion included). */
  library: WriterFigures & { buildersOnlyUsPerSpan: number };
  /** Both streams, read back with apache-arrow, hold the same rows, value for value. */
  sameRows: boolean;
  /** The first differing value, when they differ. */
  firstDifference: string | undefined;
}

/** The spans schema as the hand-written writer declares it (its own Schema message, read back). */
function spansSchema(): Schema {
  return tableFromIPC(concat(spansArrowStream([encodeSpanRecordBatch([])]))).schema;
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  return Buffer.concat(parts.map((p) => Buffer.from(p.buffer, p.byteOffset, p.byteLength)));
}

/**
 * apache-arrow's timestamp builders take epoch milliseconds (a number), so
 * nanoseconds cannot go through them whole: timestamps are built as Int64
 * (bigint nanoseconds) and the finished data is given the timestamp type back.
 */
function buildable(type: DataType): DataType {
  if (DataType.isTimestamp(type)) return new Int64();
  if (DataType.isList(type)) {
    const child = type.children[0]!;
    return new List(new Field(child.name, buildable(child.type as DataType), child.nullable));
  }
  if (DataType.isStruct(type))
    return new Struct(type.children.map((f) => new Field(f.name, buildable(f.type as DataType), f.nullable)));
  return type;
}

function retype(data: Data, type: DataType): Data {
  if (data.type === type) return data;
  const children = data.children.map((c, i) => retype(c, type.children[i]!.type as DataType));
  return new Data(type, data.offset, data.length, data.nullCount, data.buffers, children);
}

type Value = unknown;

/** A span's value of each column, as apache-arrow's builders take it (`row`: the JSON insert path's row of it). */
function columnValues(s: SpanRecord, row: SpanInsertRow): Record<string, Value> {
  return {
    ...row,
    input_tokens: BigInt(row.input_tokens),
    output_tokens: BigInt(row.output_tokens),
    cached_input_tokens: BigInt(row.cached_input_tokens),
    start_time: s.startTimeUnixNano,
    end_time: s.endTimeUnixNano,
    events: row.events.map((e, i) => ({ ...e, time: s.events[i]!.timeUnixNano })),
  };
}

/** One record batch of `spans` with apache-arrow's builders, as a whole ArrowStream. */
export function encodeWithBuilders(
  schema: Schema,
  spans: readonly SpanRecord[],
): { stream: Uint8Array; buildMs: number } {
  const rows = spans.map((s) => columnValues(s, toSpanInsertRow(s)));
  const started = performance.now();
  const children = schema.fields.map((field) => {
    const builder: Builder = makeBuilder({ type: buildable(field.type as DataType), nullValues: [null, undefined] });
    for (const row of rows) builder.append(row[field.name]);
    return retype(builder.finish().flush() as Data, field.type as DataType);
  });
  const batch = new RecordBatch(
    schema,
    makeData({ type: new Struct(schema.fields), length: spans.length, nullCount: 0, children }),
  );
  const buildMs = performance.now() - started;
  return { stream: tableToIPC(new Table([batch]), 'stream'), buildMs };
}

/** Every value of a table, row by row; timestamps as their raw nanoseconds (apache-arrow's getters give milliseconds). */
export function tableRows(table: Table): string[] {
  const columns = table.schema.fields.map((f) => ({ name: f.name, vector: table.getChild(f.name)! }));
  const rows: string[] = [];
  for (let i = 0; i < table.numRows; i++) {
    const row: Record<string, unknown> = {};
    for (const { name, vector } of columns) row[name] = plain(vector, i);
    rows.push(JSON.stringify(row, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v)));
  }
  return rows;
}

function plain(vector: Vector, i: number): unknown {
  const type = vector.type as DataType;
  if (DataType.isTimestamp(type)) return rawTimestamp(vector, i);
  if (DataType.isList(type) && DataType.isStruct(type.children[0]!.type)) {
    // list of structs: each struct's fields, timestamps raw
    const list: Vector | null = vector.get(i);
    if (list === null) return null;
    const fields = type.children[0]!.type.children;
    return Array.from({ length: list.length }, (_, j) =>
      Object.fromEntries(
        fields.map((f, k) => {
          const child = (list as unknown as { getChildAt: (n: number) => Vector }).getChildAt(k);
          return [f.name, plain(child, j)];
        }),
      ),
    );
  }
  const v: unknown = vector.get(i);
  if (v !== null && typeof v === 'object' && 'toJSON' in v) return (v as { toJSON: () => unknown }).toJSON();
  return v;
}

function rawTimestamp(vector: Vector, i: number): bigint {
  let at = i;
  for (const d of vector.data) {
    if (at < d.length) return (d.values as BigInt64Array)[d.offset + at]!;
    at -= d.length;
  }
  throw new RangeError(`row ${i} past the column's end`);
}

function firstDifference(a: readonly string[], b: readonly string[]): string | undefined {
  if (a.length !== b.length) return `row counts differ: ${a.length} and ${b.length}`;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return `row ${i}: ${a[i]} ≠ ${b[i]}`;
  return undefined;
}

/** Encodes the same spans with both writers, `repeats` times each (best taken), and reads both back. */
export function compareArrowWriters(
  spans: readonly SpanRecord[],
  batchSpans: number,
  repeats: number,
): ArrowWriterComparison {
  const schema = spansSchema();
  const batches: SpanRecord[][] = [];
  for (let i = 0; i < spans.length; i += batchSpans) batches.push(spans.slice(i, i + batchSpans));
  let handMs = Number.POSITIVE_INFINITY;
  let libMs = Number.POSITIVE_INFINITY;
  let libBuildMs = Number.POSITIVE_INFINITY;
  let handStream: Uint8Array[] = [];
  let libStreams: Uint8Array[] = [];
  for (let r = 0; r < repeats; r++) {
    let t = performance.now();
    const messages = batches.map((b) => encodeSpanRecordBatch(b));
    handMs = Math.min(handMs, performance.now() - t);
    handStream = spansArrowStream(messages);
    t = performance.now();
    let build = 0;
    libStreams = batches.map((b) => {
      const { stream, buildMs } = encodeWithBuilders(schema, b);
      build += buildMs;
      return stream;
    });
    libMs = Math.min(libMs, performance.now() - t);
    libBuildMs = Math.min(libBuildMs, build);
  }
  const handRows = tableRows(tableFromIPC(concat(handStream)));
  const libRows = libStreams.flatMap((s) => tableRows(tableFromIPC(s)));
  const difference = firstDifference(handRows, libRows);
  const perSpan = (ms: number): number => (ms * 1000) / Math.max(1, spans.length);
  // one stream either way: the library's batches after the first would share its schema message and end marker
  const schemaAndEnd = Math.max(0, libStreams.length - 1) * tableToIPC(new Table(schema), 'stream').byteLength;
  return {
    spans: spans.length,
    batchSpans,
    repeats,
    handWritten: { usPerSpan: perSpan(handMs), streamBytes: handStream.reduce((n, p) => n + p.byteLength, 0) },
    library: {
      usPerSpan: perSpan(libMs),
      buildersOnlyUsPerSpan: perSpan(libBuildMs),
      streamBytes: libStreams.reduce((n, s) => n + s.byteLength, 0) - schemaAndEnd,
    },
    sameRows: difference === undefined,
    firstDifference: difference,
  };
}
