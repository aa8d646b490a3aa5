import { decodeAnyValue } from '../otlp/protoAnyValue.js';
import { decodeEvent, decodeLink } from '../otlp/protoDecoder.js';
import type { ProtoReader } from '../otlp/protoReader.js';
import {
  AV_ARRAY,
  AV_BOOL,
  AV_BYTES,
  AV_DOUBLE,
  AV_FIELDS,
  AV_INT,
  AV_KVLIST,
  AV_STRING,
  KV_FIELDS,
  KV_KEY,
  KV_VALUE,
  SPAN_ATTRIBUTES,
  SPAN_DROPPED_ATTRIBUTES,
  SPAN_DROPPED_EVENTS,
  SPAN_DROPPED_LINKS,
  SPAN_END,
  SPAN_EVENTS,
  SPAN_FIELDS,
  SPAN_FLAGS,
  SPAN_KIND,
  SPAN_LINKS,
  SPAN_NAME,
  SPAN_PARENT_SPAN_ID,
  SPAN_SPAN_ID,
  SPAN_START,
  SPAN_STATUS,
  SPAN_TRACE_ID,
  SPAN_TRACE_STATE,
  STATUS_CODE,
  STATUS_FIELDS,
  STATUS_MESSAGE,
} from '../otlp/otlpFields.js';
import type { AnyValue, OtlpEvent, OtlpLink } from '../otlp/types.js';
import { isKeyAt, keyInfoAt, type KeyInfo } from './keyInfo.js';
import { readKeyValueFast, releaseView, viewOf } from './readKeyValueFast.js';
import { ValueKind } from './valueKind.js';

/*
 * The first pass over one OTLP Span of the fused decoder: where its fields
 * lie in the request body and the scalars they hold, in arrays reused span
 * after span. Nothing is decoded into strings but the attribute keys and the
 * span name (the keys through keyInfo's table, the name through ProtoReader's short-string cache); ids, trace
 * state, status message and string attribute values stay byte ranges of the
 * body until they are written. Every field is read with the same checks, in
 * the same order, as protoDecoder.ts (so anything it refuses, this refuses).
 */

const INITIAL = 64;

/** One span's fields as the first pass found them. */
export class SpanScratch {
  /** Offset of the span's length prefix (to decode it again as objects). */
  at = 0;
  /** Offset of the 16 trace id bytes, -1 when empty. */
  traceIdAt = -1;
  spanIdAt = -1;
  parentSpanIdAt = -1;
  traceStateAt = 0;
  traceStateLen = 0;
  name = '';
  kind = 0;
  /** Offsets of the start and end fixed64s, -1 when absent (0). */
  startAt = -1;
  endAt = -1;
  droppedAttributes = 0;
  droppedEvents = 0;
  droppedLinks = 0;
  statusCode = 0;
  statusMessageAt = 0;
  statusMessageLen = 0;
  readonly events: OtlpEvent[] = [];
  readonly links: OtlpLink[] = [];

  /** Attributes, in order. */
  attributes = 0;
  /** What each key means (its KeyInfo, by its bytes), looked up as it is read. */
  readonly infos: KeyInfo[] = [];
  /** The first key of the last span read (the likely first key of the next). */
  private first: KeyInfo | undefined;
  /** Where each key's bytes lie in the body. */
  keyStarts = new Int32Array(INITIAL);
  keyLens = new Int32Array(INITIAL);
  kinds = new Uint8Array(INITIAL);
  starts = new Int32Array(INITIAL);
  lens = new Int32Array(INITIAL);
  nums = new Float64Array(INITIAL);
  readonly objs: (AnyValue | undefined)[] = [];

  private reset(): void {
    this.traceIdAt = -1;
    this.spanIdAt = -1;
    this.parentSpanIdAt = -1;
    this.traceStateAt = 0;
    this.traceStateLen = 0;
    this.name = '';
    this.kind = 0;
    this.startAt = -1;
    this.endAt = -1;
    this.droppedAttributes = 0;
    this.droppedEvents = 0;
    this.droppedLinks = 0;
    this.statusCode = 0;
    this.statusMessageAt = 0;
    this.statusMessageLen = 0;
    // only when not empty: setting the length drops the backing store, which the next push makes again
    if (this.events.length !== 0) this.events.length = 0;
    if (this.links.length !== 0) this.links.length = 0;
    this.attributes = 0;
  }

  /** Reads the span whose length prefix is at `r.pos`; `r.pos` ends after it. */
  read(r: ProtoReader): void {
    this.reset();
    this.at = r.pos;
    const parent = r.enter();
    while (r.pos < r.limit) {
      const tag = r.readTag();
      switch (tag) {
        case SPAN_TRACE_ID:
          this.traceIdAt = readIdAt(r, 16, 'Span.trace_id');
          break;
        case SPAN_SPAN_ID:
          this.spanIdAt = readIdAt(r, 8, 'Span.span_id');
          break;
        case SPAN_TRACE_STATE:
          this.traceStateLen = r.readLength();
          this.traceStateAt = r.pos;
          r.pos += this.traceStateLen;
          break;
        case SPAN_PARENT_SPAN_ID:
          this.parentSpanIdAt = readIdAt(r, 8, 'Span.parent_span_id');
          break;
        case SPAN_NAME:
          this.name = r.readString();
          break;
        case SPAN_KIND:
          this.kind = r.readUint32() | 0;
          break;
        case SPAN_START:
          this.startAt = readFixed64At(r);
          break;
        case SPAN_END:
          this.endAt = readFixed64At(r);
          break;
        case SPAN_ATTRIBUTES:
          this.readKeyValue(r);
          break;
        case SPAN_DROPPED_ATTRIBUTES:
          this.droppedAttributes = r.readUint32();
          break;
        case SPAN_EVENTS:
          this.events.push(decodeEvent(r));
          break;
        case SPAN_DROPPED_EVENTS:
          this.droppedEvents = r.readUint32();
          break;
        case SPAN_LINKS:
          this.links.push(decodeLink(r));
          break;
        case SPAN_DROPPED_LINKS:
          this.droppedLinks = r.readUint32();
          break;
        case SPAN_STATUS:
          this.readStatus(r);
          break;
        case SPAN_FLAGS:
          r.readFixed32();
          break;
        default:
          r.skipUnknown(tag, SPAN_FIELDS, 'Span');
      }
    }
    r.leave(parent);
  }

  /** Drops the attributes whose key `drop` picks, keeping the others in order. */
  removeAttributes(drop: (key: string) => boolean): void {
    let n = 0;
    for (let i = 0; i < this.attributes; i++) {
      if (drop(this.infos[i]!.key)) continue;
      if (n !== i) this.moveAttribute(n, i);
      n++;
    }
    this.attributes = n;
  }

  /** Copies attribute slot `from` into slot `to` (for compacting the list in place). */
  moveAttribute(to: number, from: number): void {
    this.infos[to] = this.infos[from]!;
    this.keyStarts[to] = this.keyStarts[from]!;
    this.keyLens[to] = this.keyLens[from]!;
    this.kinds[to] = this.kinds[from]!;
    this.starts[to] = this.starts[from]!;
    this.lens[to] = this.lens[from]!;
    this.nums[to] = this.nums[from]!;
    this.objs[to] = this.objs[from];
  }

  private grow(): void {
    const n = this.kinds.length * 2;
    const kinds = new Uint8Array(n);
    kinds.set(this.kinds);
    const starts = new Int32Array(n);
    starts.set(this.starts);
    const lens = new Int32Array(n);
    lens.set(this.lens);
    const nums = new Float64Array(n);
    nums.set(this.nums);
    const keyStarts = new Int32Array(n);
    keyStarts.set(this.keyStarts);
    const keyLens = new Int32Array(n);
    keyLens.set(this.keyLens);
    this.keyStarts = keyStarts;
    this.keyLens = keyLens;
    this.kinds = kinds;
    this.starts = starts;
    this.lens = lens;
    this.nums = nums;
  }

  /**
   * The KeyInfo of attribute `i`'s key, at bytes [start, start + len):
   * spans of a request tend to list the same keys in the same order, so the
   * two keys that followed the previous one lately are compared first, then
   * the table is asked.
   */
  keyInfo(r: ProtoReader, start: number, len: number, i: number): KeyInfo {
    const buf = r.buf;
    const view = viewOf(buf);
    if (i === 0) {
      const first = this.first;
      if (first !== undefined && isKeyAt(first, buf, view, start, len)) return first;
      return (this.first = keyInfoAt(r, start, len));
    }
    const prev = this.infos[i - 1]!;
    const next = prev.next;
    if (next !== undefined) {
      if (isKeyAt(next, buf, view, start, len)) return next;
      const next2 = prev.next2;
      if (next2 !== undefined && isKeyAt(next2, buf, view, start, len)) {
        prev.next2 = next;
        prev.next = next2;
        return next2;
      }
    }
    const info = keyInfoAt(r, start, len);
    prev.next2 = next;
    prev.next = info;
    return info;
  }

  /** Lets go of the last request's body and objects. */
  release(): void {
    releaseView();
    this.events.length = 0;
    this.links.length = 0;
    this.objs.length = 0;
  }

  /** A KeyValue (protoAnyValue's decodeKeyValue, at depth 0), into attribute slot `attributes`. */
  private readKeyValue(r: ProtoReader): void {
    const i = this.attributes;
    if (i === this.kinds.length) this.grow();
    if (readKeyValueFast(r, this, i)) return;
    let keyAt = 0;
    let keyLen = 0;
    this.kinds[i] = ValueKind.empty;
    this.objs[i] = undefined;
    const parent = r.enter();
    while (r.pos < r.limit) {
      const tag = r.readTag();
      switch (tag) {
        case KV_KEY:
          keyLen = r.readLength();
          keyAt = r.pos;
          r.pos += keyLen;
          break;
        case KV_VALUE:
          this.readAnyValue(r, i);
          break;
        default:
          r.skipUnknown(tag, KV_FIELDS, 'KeyValue');
      }
    }
    r.leave(parent);
    this.keyStarts[i] = keyAt;
    this.keyLens[i] = keyLen;
    this.infos[i] = this.keyInfo(r, keyAt, keyLen, i);
    this.attributes = i + 1;
  }

  /** An attribute's AnyValue (depth 1): the last oneof member wins; bytes, arrays and kvlists are decoded as objects. */
  private readAnyValue(r: ProtoReader, i: number): void {
    const at = r.pos;
    let kind: number = ValueKind.empty;
    let object = false;
    const parent = r.enter();
    while (r.pos < r.limit) {
      const tag = r.readTag();
      switch (tag) {
        case AV_STRING: {
          const len = r.readLength();
          this.starts[i] = r.pos;
          this.lens[i] = len;
          r.pos += len;
          kind = ValueKind.string;
          break;
        }
        case AV_BOOL:
          this.nums[i] = r.readBool() ? 1 : 0;
          kind = ValueKind.bool;
          break;
        case AV_INT: {
          const v = r.readInt64Value();
          if (typeof v === 'number') {
            this.nums[i] = v;
            this.objs[i] = undefined;
          } else this.objs[i] = v;
          kind = ValueKind.int;
          break;
        }
        case AV_DOUBLE:
          this.nums[i] = r.readDouble();
          kind = ValueKind.double;
          break;
        case AV_ARRAY:
        case AV_KVLIST:
        case AV_BYTES: {
          const len = r.readLength();
          r.pos += len;
          object = true;
          break;
        }
        default:
          r.skipUnknown(tag, AV_FIELDS, 'AnyValue');
      }
    }
    r.leave(parent);
    if (object) {
      // whatever member won, protoAnyValue decides it (and checks the nested values) from the start again
      const end = r.pos;
      r.pos = at;
      this.objs[i] = decodeAnyValue(r, 1);
      r.pos = end;
      kind = ValueKind.object;
    }
    this.kinds[i] = kind;
  }

  private readStatus(r: ProtoReader): void {
    const parent = r.enter();
    while (r.pos < r.limit) {
      const tag = r.readTag();
      switch (tag) {
        case STATUS_MESSAGE:
          this.statusMessageLen = r.readLength();
          this.statusMessageAt = r.pos;
          r.pos += this.statusMessageLen;
          break;
        case STATUS_CODE:
          this.statusCode = r.readUint32() | 0;
          break;
        default:
          r.skipUnknown(tag, STATUS_FIELDS, 'Status');
      }
    }
    r.leave(parent);
  }
}

/** ProtoReader.readId's checks, keeping the id's offset (-1 when empty) instead of its hex. */
function readIdAt(r: ProtoReader, size: 8 | 16, what: string): number {
  const start = r.pos;
  const len = r.readLength();
  if (len === 0) return -1;
  if (len !== size) r.fail(`${what} must be ${size} bytes (or empty), got ${len}`, start);
  const at = r.pos;
  r.pos += size;
  return at;
}

function readFixed64At(r: ProtoReader): number {
  const at = r.pos;
  r.readFixed64Skip();
  return at;
}
