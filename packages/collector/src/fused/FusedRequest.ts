import { SpanBatchEncoder, type SpanRecord } from '@telltale/store/encode';
import type { ContentCounts, RejectCounts, SplitContent } from '../normalise/normaliseRequest.js';
import { REJECT_REASON, serviceNameOf } from '../normalise/normaliseRequest.js';
import {
  DEFAULT_SPAN_LIMITS,
  emptyLimitCounts,
  limitAttributes,
  timeRangeReason,
  type SpanLimits,
} from '../normalise/spanLimits.js';
import { decodeResourceInto, decodeScopeInto } from '../otlp/protoDecoder.js';
import type { ProtoReader } from '../otlp/protoReader.js';
import {
  REQ_FIELDS,
  REQ_RESOURCE_SPANS,
  RS_FIELDS,
  RS_RESOURCE,
  RS_SCHEMA_URL,
  RS_SCOPE_SPANS,
  SS_FIELDS,
  SS_SCHEMA_URL,
  SS_SCOPE,
  SS_SPANS,
} from '../otlp/otlpFields.js';
import type { OtlpResource, OtlpScope } from '../otlp/types.js';
import { emptyFusedRow, type FusedRow } from './FusedRow.js';
import { SpanScratch } from './SpanScratch.js';
import { splitScratchContent } from './splitScratchContent.js';
import {
  ContentKind,
  contentKindOf,
  dropEmptyContent,
  hexAt,
  writeSpanRow,
  zeroAt,
  type RowContext,
} from './writeSpanRow.js';

const MAX_REPORTED_ERRORS = 5;
/** 2^32 = 4294 · 10^6 + 967296: milliseconds of a fixed64 nanosecond count from its halves, exactly. */
const MS_PER_HI = 4294;
const HI_REMAINDER = 967_296;

/** One request's state as the fused decoder goes through it (reused: one request at a time per thread). */
export class FusedRequest {
  readonly encoder = new SpanBatchEncoder();
  readonly scratch = new SpanScratch();
  /** Rows reused across requests; `rows` holds them, or the object path's records, for this request. */
  private readonly pool: FusedRow[] = [];
  readonly rows: (FusedRow | SpanRecord)[] = [];
  readonly withContent: { record: FusedRow | SpanRecord; split: SplitContent }[] = [];
  readonly errors: string[] = [];
  rejectedSpans = 0;
  rejectedBy: RejectCounts = { overRequestLimit: 0, invalid: 0, outOfTimeRange: 0 };
  content: ContentCounts = { kept: 0, truncated: 0, dropped: 0, storedBytes: 0 };
  seen = 0;
  keepContent = true;
  nowMs = 0;
  ctx: RowContext = {
    projectId: '',
    serviceName: '',
    resource: [],
    scopeName: '',
    scopeVersion: '',
    limits: DEFAULT_SPAN_LIMITS,
    counts: emptyLimitCounts(),
  };
  /** Where the current resource's scopes and the current scope's spans start (reused lists). */
  private scopeAt: Int32Array = new Int32Array(16);
  private spanAt: Int32Array = new Int32Array(1024);
  private lastTraceAt = -1;
  private lastTraceId = '';
  private view: DataView = new DataView(new ArrayBuffer(0));

  begin(body: Uint8Array, projectId: string, limits: SpanLimits, nowMs: number, keepContent: boolean): void {
    this.encoder.begin();
    this.rows.length = 0;
    this.withContent.length = 0;
    this.errors.length = 0;
    this.rejectedSpans = 0;
    this.rejectedBy = { overRequestLimit: 0, invalid: 0, outOfTimeRange: 0 };
    this.content = { kept: 0, truncated: 0, dropped: 0, storedBytes: 0 };
    this.seen = 0;
    this.keepContent = keepContent;
    this.nowMs = nowMs;
    this.lastTraceAt = -1;
    this.view = new DataView(body.buffer, body.byteOffset, body.byteLength);
    this.ctx = {
      projectId,
      serviceName: '',
      resource: [],
      scopeName: '',
      scopeVersion: '',
      limits,
      counts: emptyLimitCounts(),
    };
  }

  /** Drops what the request referenced (the body, its strings) once it is done. */
  end(): void {
    this.rows.length = 0;
    this.withContent.length = 0;
    this.view = new DataView(new ArrayBuffer(0));
    this.scratch.release();
  }

  request(r: ProtoReader): void {
    while (r.pos < r.limit) {
      const tag = r.readTag();
      if (tag === REQ_RESOURCE_SPANS) this.resourceSpans(r);
      else r.skipUnknown(tag, REQ_FIELDS, 'ExportTraceServiceRequest');
    }
  }

  /** A ResourceSpans: its resource first (wherever it sits), then its scopes in order. */
  private resourceSpans(r: ProtoReader): void {
    const resource: OtlpResource = { attributes: [], droppedAttributesCount: 0 };
    let scopes = 0;
    const parent = r.enter();
    while (r.pos < r.limit) {
      const tag = r.readTag();
      switch (tag) {
        case RS_RESOURCE:
          decodeResourceInto(r, resource);
          break;
        case RS_SCOPE_SPANS: {
          this.scopeAt = pushAt(this.scopeAt, scopes++, r.pos);
          const n = r.readLength();
          r.pos += n;
          break;
        }
        case RS_SCHEMA_URL:
          r.readString();
          break;
        default:
          r.skipUnknown(tag, RS_FIELDS, 'ResourceSpans');
      }
    }
    r.leave(parent);
    const end = r.pos;
    const ctx = this.ctx;
    ctx.serviceName = serviceNameOf(resource.attributes);
    ctx.resource = limitAttributes(resource.attributes, ctx.limits, ctx.counts).attributes;
    for (let k = 0; k < scopes; k++) {
      r.pos = this.scopeAt[k]!;
      this.scopeSpans(r);
    }
    r.pos = end;
  }

  /** A ScopeSpans: its scope first (wherever it sits), then its spans in order. */
  private scopeSpans(r: ProtoReader): void {
    const scope: OtlpScope = { name: '', version: '', attributes: [], droppedAttributesCount: 0 };
    let spans = 0;
    const parent = r.enter();
    while (r.pos < r.limit) {
      const tag = r.readTag();
      switch (tag) {
        case SS_SCOPE:
          decodeScopeInto(r, scope);
          break;
        case SS_SPANS: {
          this.spanAt = pushAt(this.spanAt, spans++, r.pos);
          const n = r.readLength();
          r.pos += n;
          break;
        }
        case SS_SCHEMA_URL:
          r.readString();
          break;
        default:
          r.skipUnknown(tag, SS_FIELDS, 'ScopeSpans');
      }
    }
    r.leave(parent);
    const end = r.pos;
    this.ctx.scopeName = scope.name;
    this.ctx.scopeVersion = scope.version;
    for (let k = 0; k < spans; k++) {
      r.pos = this.spanAt[k]!;
      this.span(r);
    }
    r.pos = end;
  }

  private fixed64(at: number): bigint {
    return at < 0 ? 0n : this.view.getBigUint64(at, true);
  }

  /** Why the span in the scratch is refused, or undefined; counts the refusal by reason. */
  private rejectReason(buf: Uint8Array): string | undefined {
    const s = this.scratch;
    const limits = this.ctx.limits;
    if (++this.seen > limits.maxSpansPerRequest) {
      this.rejectedBy.overRequestLimit++;
      return `over the limit of ${limits.maxSpansPerRequest} spans per request`;
    }
    let reason: string | undefined;
    if (s.traceIdAt < 0 || zeroAt(buf, s.traceIdAt, 16)) reason = REJECT_REASON.traceId;
    else if (s.spanIdAt < 0 || zeroAt(buf, s.spanIdAt, 8)) reason = REJECT_REASON.spanId;
    else {
      const startLo = s.startAt < 0 ? 0 : this.view.getUint32(s.startAt, true);
      const startHi = s.startAt < 0 ? 0 : this.view.getUint32(s.startAt + 4, true);
      const endLo = s.endAt < 0 ? 0 : this.view.getUint32(s.endAt, true);
      const endHi = s.endAt < 0 ? 0 : this.view.getUint32(s.endAt + 4, true);
      if (startLo === 0 && startHi === 0) reason = REJECT_REASON.noStart;
      else if (endHi < startHi || (endHi === startHi && endLo < startLo)) reason = REJECT_REASON.endBeforeStart;
      else {
        const startMs = startHi * MS_PER_HI + Math.floor((startHi * HI_REMAINDER + startLo) / 1e6);
        if (startMs < this.nowMs - limits.maxAgeMs || startMs > this.nowMs + limits.maxFutureMs) {
          this.rejectedBy.outOfTimeRange++;
          return timeRangeReason({ startTimeUnixNano: this.fixed64(s.startAt) }, limits, this.nowMs);
        }
        return undefined;
      }
    }
    this.rejectedBy.invalid++;
    return reason;
  }

  private span(r: ProtoReader): void {
    const s = this.scratch;
    s.read(r);
    const buf = r.buf;
    const reason = this.rejectReason(buf);
    if (reason !== undefined) {
      this.rejectedSpans++;
      if (this.errors.length < MAX_REPORTED_ERRORS)
        this.errors.push(`span ${s.spanIdAt < 0 ? '(no id)' : hexAt(buf, s.spanIdAt, 8)}: ${reason}`);
      return;
    }
    const ctx = this.ctx;
    const cols = this.encoder.columns;
    const contentKind = contentKindOf(s);
    if (contentKind === ContentKind.emptyEvents) dropEmptyContent(s);
    const split = contentKind === ContentKind.content ? splitScratchContent(r, s) : undefined;
    if (s.traceIdAt !== this.lastTraceAt) {
      // spans of a trace come together: compare the bytes before making the hex again
      if (this.lastTraceAt < 0 || !sameBytes(buf, s.traceIdAt, this.lastTraceAt, 16))
        this.lastTraceId = hexAt(buf, s.traceIdAt, 16);
      this.lastTraceAt = s.traceIdAt;
    }
    const n = this.rows.length;
    let row = this.pool[n];
    if (row === undefined) this.pool.push((row = emptyFusedRow()));
    writeSpanRow(
      cols,
      r,
      s,
      this.lastTraceId,
      hexAt(buf, s.spanIdAt, 8),
      this.fixed64(s.startAt),
      s.endAt,
      this.view,
      ctx,
      row,
      s.attributes,
      split === undefined ? 0 : s.attributes + Math.min(split.contentAttributes, ctx.limits.maxAttributes),
    );
    this.rows.push(row);
    if (split?.content !== undefined) {
      if (this.keepContent) this.withContent.push({ record: row, split: split.content });
      else this.content.dropped++;
    }
  }
}

/** `list` with `value` at index `i`, grown (doubled) when full. */
function pushAt(list: Int32Array, i: number, value: number): Int32Array {
  if (i === list.length) {
    const next = new Int32Array(2 * list.length);
    next.set(list);
    list = next;
  }
  list[i] = value;
  return list;
}

function sameBytes(buf: Uint8Array, a: number, b: number, size: number): boolean {
  for (let i = 0; i < size; i++) if (buf[a + i] !== buf[b + i]) return false;
  return true;
}
