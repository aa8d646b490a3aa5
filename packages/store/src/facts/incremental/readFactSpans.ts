import { SESSION_ID_SOURCES } from '@telltale/semconv';
import { BUFFERS_PER_TYPE, type ArrowField } from '../../spans/arrow/arrowSchema.js';
import { RecordBatchWriter } from '../../spans/arrow/RecordBatchWriter.js';
import { SPANS_ARROW_FIELDS, SPANS_ARROW_LAYOUT } from '../../spans/arrow/spansArrowSchema.js';
import type { FactSpan } from './FactSpan.js';

/** The fact spans of one record batch, row by row: the project and run of each, and its fact columns. */
export interface BatchFactSpans {
  projectIds: string[];
  runIds: string[];
  spans: FactSpan[];
}

/** The first body buffer of every top-level column (depth-first, as the writer lays them out). */
const FIRST_BUFFER = new Map<string, number>();
{
  let at = 0;
  const visit = (f: ArrowField): void => {
    at += BUFFERS_PER_TYPE[f.type];
    f.children.forEach(visit);
  };
  for (const f of SPANS_ARROW_FIELDS) {
    FIRST_BUFFER.set(f.name, at);
    visit(f);
  }
}
const bufferOf = (name: string): number => {
  const at = FIRST_BUFFER.get(name);
  // invariant: the names below are the schema's own (a plain Error)
  if (at === undefined) throw new Error(`spans schema has no column ${name}`);
  return at;
};

const SESSION_KEYS = SESSION_ID_SOURCES.map((key) => Buffer.from(key, 'utf8'));
/** Whether some session source key has this many bytes (most keys are told apart by their length alone). */
const SESSION_KEY_LENGTH = new Uint8Array(256);
for (const key of SESSION_KEYS) if (key.length < 256) SESSION_KEY_LENGTH[key.length] = 1;

/** Buffer's own decoder, without `toString`'s argument checks (Node's Buffer has it; any other view gets a stand-in). */
interface Utf8Slicer {
  utf8Slice(start: number, end: number): string;
}
function slicerOf(bytes: Buffer): Utf8Slicer {
  if (typeof (bytes as Partial<Utf8Slicer>).utf8Slice === 'function') return bytes as unknown as Utf8Slicer;
  return { utf8Slice: (start, end) => bytes.toString('utf8', start, end) };
}
const TWO_32 = 4294967296;

/** Reads the template positions: every spans message is written by a writer of this layout. */
const positions = new RecordBatchWriter(SPANS_ARROW_LAYOUT.nodes, SPANS_ARROW_LAYOUT.buffers);

/**
 * The columns of a spans record batch message (encodeSpanRecordBatch, the
 * fused decoder's SpanBatchEncoder) that the run facts read, as FactSpans:
 * what factSpanOf gives for the records the batch was written from, read
 * from the bytes in hand instead of the spans read back from storage. The
 * session id is the first non-empty SESSION_ID_SOURCES value of the
 * attributes map (whose keys are unique), as the spans table materialises
 * it. Undefined when the message is not a spans batch of this layout.
 */
export function readFactSpans(message: Uint8Array): BatchFactSpans | undefined {
  const at = positions.bufferPositions(message);
  if (at === undefined) return undefined;
  const bytes = Buffer.from(message.buffer, message.byteOffset, message.byteLength);
  const view = new DataView(message.buffer, message.byteOffset, message.byteLength);
  const rows = rowCount(at, bufferOf('span_id'));
  const utf8 = (name: string): Utf8Reader => new Utf8Reader(bytes, view, at, bufferOf(name));
  const project = utf8('project_id');
  const run = utf8('run_id');
  const traceId = utf8('trace_id');
  const spanId = utf8('span_id');
  const parentSpanId = utf8('parent_span_id');
  const name = utf8('name');
  const service = utf8('service_name');
  const stepKind = utf8('step_kind');
  const stepName = utf8('step_name');
  const toolName = utf8('tool_name');
  const toolArgsHash = utf8('tool_args_hash');
  const stateHash = utf8('state_hash');
  const outputHash = utf8('output_hash');
  const model = utf8('model');
  const errorType = utf8('error_type');
  const runOutcome = utf8('run_outcome');
  const dataAt = (name: string): number => at[2 * (bufferOf(name) + 1)]!;
  const isRunRoot = dataAt('is_run_root');
  const sideEffect = dataAt('side_effect');
  const attempt = dataAt('attempt');
  const inputTokens = dataAt('input_tokens');
  const outputTokens = dataAt('output_tokens');
  const cachedTokens = dataAt('cached_input_tokens');
  const costValidity = at[2 * bufferOf('cost_usd') + 1] === 0 ? -1 : at[2 * bufferOf('cost_usd')]!;
  const cost = dataAt('cost_usd');
  const start = dataAt('start_time');
  const end = dataAt('end_time');
  const statusCode = dataAt('status_code');
  const sessions = new SessionReader(bytes, view, at, bufferOf('attributes'), rows);

  const out: BatchFactSpans = {
    projectIds: new Array<string>(rows),
    runIds: new Array<string>(rows),
    spans: new Array<FactSpan>(rows),
  };
  const bit = (from: number, i: number): boolean => (bytes[from + (i >> 3)]! & (1 << (i & 7))) !== 0;
  const u64 = (from: number, i: number): number =>
    view.getUint32(from + 8 * i, true) + view.getUint32(from + 8 * i + 4, true) * TWO_32;
  for (let i = 0; i < rows; i++) {
    out.projectIds[i] = project.get(i);
    out.runIds[i] = run.get(i);
    out.spans[i] = {
      traceId: traceId.get(i),
      spanId: spanId.get(i),
      parentSpanId: parentSpanId.get(i),
      name: name.get(i),
      serviceName: service.get(i),
      isRunRoot: bit(isRunRoot, i),
      stepKind: stepKind.get(i),
      stepName: stepName.get(i),
      attempt: view.getUint16(attempt + 2 * i, true),
      toolName: toolName.get(i),
      toolArgsHash: toolArgsHash.get(i),
      stateHash: stateHash.get(i),
      outputHash: outputHash.get(i),
      sideEffect: bit(sideEffect, i),
      model: model.get(i),
      inputTokens: u64(inputTokens, i),
      outputTokens: u64(outputTokens, i),
      cachedInputTokens: u64(cachedTokens, i),
      costUsd: costValidity >= 0 && !bit(costValidity, i) ? null : view.getFloat64(cost + 8 * i, true),
      startNs: view.getBigInt64(start + 8 * i, true),
      endNs: view.getBigInt64(end + 8 * i, true),
      statusCode: bytes[statusCode + i]!,
      errorType: errorType.get(i),
      runOutcome: runOutcome.get(i),
      sessionId: sessions.get(i),
      spanKey: undefined,
    };
  }
  return out;
}

/** Rows of the batch: a utf8 column has one more int32 offset than rows. */
function rowCount(at: Float64Array, utf8Buffer: number): number {
  return Math.max(0, at[2 * (utf8Buffer + 1) + 1]! / 4 - 1);
}

/**
 * The strings of a utf8 column; a value equal to the one before it is the
 * same string (most fact columns repeat from row to row: kinds, names,
 * models, services), so runs of equal values cost a comparison, not a decode.
 */
class Utf8Reader {
  private readonly offsets: number;
  private readonly data: number;
  private lastStart = 0;
  private lastLength = -1;
  private last = '';
  private readonly slicer: Utf8Slicer;

  constructor(
    private readonly bytes: Buffer,
    private readonly view: DataView,
    at: Float64Array,
    first: number,
  ) {
    this.offsets = at[2 * (first + 1)]!;
    this.data = at[2 * (first + 2)]!;
    this.slicer = slicerOf(bytes);
  }

  /** Where value i's bytes start. */
  start(i: number): number {
    return this.data + this.view.getInt32(this.offsets + 4 * i, true);
  }

  /** How many bytes value i has. */
  length(i: number): number {
    return this.view.getInt32(this.offsets + 4 * i + 4, true) - this.view.getInt32(this.offsets + 4 * i, true);
  }

  get(i: number): string {
    const at = this.offsets + 4 * i;
    const from = this.view.getInt32(at, true);
    const length = this.view.getInt32(at + 4, true) - from;
    const start = this.data + from;
    if (length === this.lastLength && this.sameAsLast(start, length)) return this.last;
    this.lastStart = start;
    this.lastLength = length;
    this.last = length === 0 ? '' : this.slicer.utf8Slice(start, start + length);
    return this.last;
  }

  /** Whether the `length` bytes at `start` are those of the last value (four at a time: ids are 16 and 32 bytes). */
  private sameAsLast(start: number, length: number): boolean {
    const view = this.view;
    const last = this.lastStart;
    let k = 0;
    for (; k + 4 <= length; k += 4) if (view.getUint32(start + k) !== view.getUint32(last + k)) return false;
    const bytes = this.bytes;
    for (; k < length; k++) if (bytes[start + k] !== bytes[last + k]) return false;
    return true;
  }
}

/** A row's session id from the attributes map: the first non-empty value of SESSION_ID_SOURCES, by precedence. */
class SessionReader {
  private readonly entries: number;
  private readonly keys: Utf8Reader;
  private readonly values: Utf8Reader;
  /** No key of the batch is a session source (most batches): every row's session id is empty. */
  private readonly none: boolean;

  constructor(
    private readonly bytes: Buffer,
    private readonly view: DataView,
    at: Float64Array,
    first: number,
    rows: number,
  ) {
    // map: validity, offsets; entries struct: validity; key: utf8; value: utf8
    this.entries = at[2 * (first + 1)]!;
    this.keys = new Utf8Reader(bytes, view, at, first + 3);
    this.values = new Utf8Reader(bytes, view, at, first + 6);
    // one search of all the keys' bytes per source costs less than looking at every entry of every row
    const keys = rows === 0 ? undefined : this.keyBytes(rows);
    this.none = keys === undefined || SESSION_KEYS.every((key) => keys.indexOf(key) < 0);
  }

  /** The bytes of every key of the first `rows` rows' maps. */
  private keyBytes(rows: number): Buffer {
    return this.bytes.subarray(this.keys.start(0), this.keys.start(this.view.getInt32(this.entries + 4 * rows, true)));
  }

  get(row: number): string {
    if (this.none) return '';
    const from = this.view.getInt32(this.entries + 4 * row, true);
    const to = this.view.getInt32(this.entries + 4 * row + 4, true);
    let best = '';
    let bestRank = SESSION_KEYS.length;
    for (let e = from; e < to; e++) {
      const rank = this.rankOf(e);
      if (rank >= bestRank) continue;
      const value = this.values.get(e);
      if (value === '') continue;
      best = value;
      bestRank = rank;
    }
    return best;
  }

  /** The precedence of entry e's key among the session sources (their count when it is none). */
  private rankOf(e: number): number {
    const length = this.keys.length(e);
    if (length >= 256 || SESSION_KEY_LENGTH[length] === 0) return SESSION_KEYS.length;
    const start = this.keys.start(e);
    for (let r = 0; r < SESSION_KEYS.length; r++) {
      const key = SESSION_KEYS[r]!;
      if (key.length !== length) continue;
      let k = 0;
      while (k < length && this.bytes[start + k] === key[k]) k++;
      if (k === length) return r;
    }
    return SESSION_KEYS.length;
  }
}
