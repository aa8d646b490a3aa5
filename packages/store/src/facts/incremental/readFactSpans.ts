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
  const columns = new FactColumns(message, at);
  const rows = rowCount(at, bufferOf('span_id'));
  const out: BatchFactSpans = {
    projectIds: new Array<string>(rows),
    runIds: new Array<string>(rows),
    spans: new Array<FactSpan>(rows),
  };
  for (let i = 0; i < rows; i++) {
    out.projectIds[i] = columns.project.get(i);
    out.runIds[i] = columns.run.get(i);
    out.spans[i] = new BatchFactSpan(columns, i);
  }
  return out;
}

/** Where a spans batch's fact columns lie, with a reader for each. */
class FactColumns {
  readonly bytes: Buffer;
  readonly view: DataView;
  readonly project: Utf8Reader;
  readonly run: Utf8Reader;
  readonly traceId: Utf8Reader;
  readonly spanId: Utf8Reader;
  readonly parentSpanId: Utf8Reader;
  readonly name: Utf8Reader;
  readonly service: Utf8Reader;
  readonly stepKind: Utf8Reader;
  readonly stepName: Utf8Reader;
  readonly toolName: Utf8Reader;
  readonly toolArgsHash: Utf8Reader;
  readonly stateHash: Utf8Reader;
  readonly outputHash: Utf8Reader;
  readonly model: Utf8Reader;
  readonly errorType: Utf8Reader;
  readonly runOutcome: Utf8Reader;
  readonly isRunRoot: number;
  readonly sideEffect: number;
  readonly attempt: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cachedTokens: number;
  /** The cost's validity bitmap, -1 when the batch has no nulls. */
  readonly costValidity: number;
  readonly cost: number;
  readonly start: number;
  readonly end: number;
  readonly statusCode: number;
  readonly sessions: SessionReader;

  constructor(message: Uint8Array, at: Float64Array) {
    const bytes = (this.bytes = Buffer.from(message.buffer, message.byteOffset, message.byteLength));
    const view = (this.view = new DataView(message.buffer, message.byteOffset, message.byteLength));
    const utf8 = (name: string): Utf8Reader => new Utf8Reader(bytes, view, at, bufferOf(name));
    const words = (name: string): Utf8Reader => new WordReader(bytes, view, at, bufferOf(name));
    const dataAt = (name: string): number => at[2 * (bufferOf(name) + 1)]!;
    this.project = utf8('project_id');
    this.run = utf8('run_id');
    this.traceId = utf8('trace_id');
    this.spanId = utf8('span_id');
    this.parentSpanId = utf8('parent_span_id');
    this.name = words('name');
    this.service = words('service_name');
    this.stepKind = words('step_kind');
    this.stepName = words('step_name');
    this.toolName = words('tool_name');
    this.toolArgsHash = utf8('tool_args_hash');
    this.stateHash = utf8('state_hash');
    this.outputHash = utf8('output_hash');
    this.model = words('model');
    this.errorType = words('error_type');
    this.runOutcome = words('run_outcome');
    this.isRunRoot = dataAt('is_run_root');
    this.sideEffect = dataAt('side_effect');
    this.attempt = dataAt('attempt');
    this.inputTokens = dataAt('input_tokens');
    this.outputTokens = dataAt('output_tokens');
    this.cachedTokens = dataAt('cached_input_tokens');
    this.costValidity = at[2 * bufferOf('cost_usd') + 1] === 0 ? -1 : at[2 * bufferOf('cost_usd')]!;
    this.cost = dataAt('cost_usd');
    this.start = dataAt('start_time');
    this.end = dataAt('end_time');
    this.statusCode = dataAt('status_code');
    this.sessions = new SessionReader(bytes, view, at, bufferOf('attributes'));
  }

  bit(from: number, i: number): boolean {
    return (this.bytes[from + (i >> 3)]! & (1 << (i & 7))) !== 0;
  }

  u64(from: number, i: number): number {
    return this.view.getUint32(from + 8 * i, true) + this.view.getUint32(from + 8 * i + 4, true) * TWO_32;
  }
}

/**
 * A fact span read from a batch. The columns every span's facts read are
 * read at once; those only a run's root, a failed span or a loop step
 * reads (its name, service, outcome, error, tool and hashes) and its
 * session id are read from the row the first time they are asked for:
 * a run's facts want the session id of its earliest span that has one
 * only (computeRunFacts compares start times first), so most rows'
 * attributes are never searched.
 */
class BatchFactSpan implements FactSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string;
  readonly isRunRoot: boolean;
  readonly stepKind: string;
  readonly stepName: string;
  readonly attempt: number;
  readonly sideEffect: boolean;
  readonly model: string;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cachedInputTokens: number;
  readonly costUsd: number | null;
  readonly startNs: bigint;
  readonly endNs: bigint;
  readonly statusCode: number;
  spanKey: bigint | undefined = undefined;
  readonly #c: FactColumns;
  readonly #row: number;
  #name: string | undefined = undefined;
  #serviceName: string | undefined = undefined;
  #errorType: string | undefined = undefined;
  #runOutcome: string | undefined = undefined;
  #toolName: string | undefined = undefined;
  #toolArgsHash: string | undefined = undefined;
  #stateHash: string | undefined = undefined;
  #outputHash: string | undefined = undefined;
  #sessionId: string | undefined = undefined;

  constructor(c: FactColumns, i: number) {
    const view = c.view;
    this.traceId = c.traceId.get(i);
    this.spanId = c.spanId.get(i);
    this.parentSpanId = c.parentSpanId.get(i);
    this.isRunRoot = c.bit(c.isRunRoot, i);
    this.stepKind = c.stepKind.get(i);
    this.stepName = c.stepName.get(i);
    this.attempt = view.getUint16(c.attempt + 2 * i, true);
    this.sideEffect = c.bit(c.sideEffect, i);
    this.model = c.model.get(i);
    this.inputTokens = c.u64(c.inputTokens, i);
    this.outputTokens = c.u64(c.outputTokens, i);
    this.cachedInputTokens = c.u64(c.cachedTokens, i);
    this.costUsd = c.costValidity >= 0 && !c.bit(c.costValidity, i) ? null : view.getFloat64(c.cost + 8 * i, true);
    this.startNs = view.getBigInt64(c.start + 8 * i, true);
    this.endNs = view.getBigInt64(c.end + 8 * i, true);
    this.statusCode = c.bytes[c.statusCode + i]!;
    this.#c = c;
    this.#row = i;
  }

  get name(): string {
    return (this.#name ??= this.#c.name.get(this.#row));
  }
  get serviceName(): string {
    return (this.#serviceName ??= this.#c.service.get(this.#row));
  }
  get errorType(): string {
    return (this.#errorType ??= this.#c.errorType.get(this.#row));
  }
  get runOutcome(): string {
    return (this.#runOutcome ??= this.#c.runOutcome.get(this.#row));
  }
  get toolName(): string {
    return (this.#toolName ??= this.#c.toolName.get(this.#row));
  }
  get toolArgsHash(): string {
    return (this.#toolArgsHash ??= this.#c.toolArgsHash.get(this.#row));
  }
  get stateHash(): string {
    return (this.#stateHash ??= this.#c.stateHash.get(this.#row));
  }
  get outputHash(): string {
    return (this.#outputHash ??= this.#c.outputHash.get(this.#row));
  }
  get sessionId(): string {
    return (this.#sessionId ??= this.#c.sessions.get(this.#row));
  }
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
    protected readonly bytes: Buffer,
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
    if (length === this.lastLength && this.same(start, this.lastStart, length)) return this.last;
    this.lastStart = start;
    this.lastLength = length;
    this.last = length === 0 ? '' : this.decode(start, length);
    return this.last;
  }

  protected decode(start: number, length: number): string {
    return this.slicer.utf8Slice(start, start + length);
  }

  /** Whether the `length` bytes at `start` and at `last` are equal (four at a time: ids are 16 and 32 bytes). */
  protected same(start: number, last: number, length: number): boolean {
    const view = this.view;
    let k = 0;
    for (; k + 4 <= length; k += 4) if (view.getUint32(start + k) !== view.getUint32(last + k)) return false;
    const bytes = this.bytes;
    for (; k < length; k++) if (bytes[start + k] !== bytes[last + k]) return false;
    return true;
  }
}

/**
 * The strings of a low-cardinality utf8 column (kinds, step names, models,
 * services), where values recur but seldom twice in a row: each decoded
 * value is kept in a small table slot chosen by its length and a few of its
 * bytes, so a value seen before costs a comparison, not a decode.
 */
class WordReader extends Utf8Reader {
  private readonly slotStart = new Int32Array(WORD_SLOTS);
  private readonly slotLength = new Int32Array(WORD_SLOTS).fill(-1);
  private readonly slotValue = new Array<string>(WORD_SLOTS).fill('');

  override get(i: number): string {
    const start = this.start(i);
    const length = this.length(i);
    if (length === 0) return '';
    const b = this.bytes;
    const slot =
      (length * 7 + b[start]! * 3 + b[start + length - 1]! + b[start + (length >> 1)]! * 5) & (WORD_SLOTS - 1);
    if (this.slotLength[slot] === length && this.same(start, this.slotStart[slot]!, length))
      return this.slotValue[slot]!;
    const value = this.decode(start, length);
    this.slotStart[slot] = start;
    this.slotLength[slot] = length;
    this.slotValue[slot] = value;
    return value;
  }
}
const WORD_SLOTS = 64;

/** A row's session id from the attributes map: the first non-empty value of SESSION_ID_SOURCES, by precedence. */
class SessionReader {
  private readonly entries: number;
  private readonly keys: Utf8Reader;
  private readonly values: Utf8Reader;

  constructor(
    private readonly bytes: Buffer,
    private readonly view: DataView,
    at: Float64Array,
    first: number,
  ) {
    // map: validity, offsets; entries struct: validity; key: utf8; value: utf8
    this.entries = at[2 * (first + 1)]!;
    this.keys = new Utf8Reader(bytes, view, at, first + 3);
    this.values = new Utf8Reader(bytes, view, at, first + 6);
  }

  get(row: number): string {
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
