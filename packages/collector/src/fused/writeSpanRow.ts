import { CONTENT_EVENT_BODY_KEYS, CONTENT_MESSAGE_EVENTS, TelltaleAttr } from '@telltale/semconv';
import type { SpanColumns } from '@telltale/store/encode';
import type { ProtoReader } from '../otlp/protoReader.js';
import type { OtlpEvent } from '../otlp/types.js';
import { HEX_CODES } from '../otlp/protoWire.js';
import { SpanFields } from '../normalise/attributeLookup.js';
import { deriveColumns, emptyDerivedColumns } from '../normalise/deriveColumns.js';
import { limitItems, type LimitCounts, type SpanLimits } from '../normalise/spanLimits.js';
import type { FusedRow } from './FusedRow.js';
import type { SpanScratch } from './SpanScratch.js';
import { validUtf8 } from './validUtf8.js';
import { fieldValue, writeAttributes } from './writeAttributes.js';

/** What a span carries of content, and so which path it takes. */
export const ContentKind = {
  /** Nothing: the fused path as it is. */
  none: 0,
  /**
   * Only deprecated GenAI message events with no body (an empty
   * `gen_ai.choice`): splitContent takes them and the capture markers off the
   * span and keeps no content, which the fused path does too.
   */
  emptyEvents: 1,
  /** Content attributes or message bodies: splitScratchContent moves them out. */
  content: 2,
} as const;

function bodiless(e: OtlpEvent): boolean {
  for (const kv of e.attributes) if (CONTENT_EVENT_BODY_KEYS.includes(kv.key)) return false;
  return true;
}

/** Which path the span in the scratch takes (see ContentKind). */
export function contentKindOf(s: SpanScratch): number {
  for (let i = 0; i < s.attributes; i++) if (s.infos[i]!.content) return ContentKind.content;
  let kind: number = ContentKind.none;
  for (const e of s.events) {
    if (CONTENT_MESSAGE_EVENTS[e.name] === undefined) continue;
    if (!bodiless(e)) return ContentKind.content;
    kind = ContentKind.emptyEvents;
  }
  return kind;
}

/** As splitContent leaves a span whose only content was bodiless message events: without them, nor the capture markers. */
export function dropEmptyContent(s: SpanScratch): void {
  s.removeAttributes((key) => key === TelltaleAttr.contentCapture || key === TelltaleAttr.contentRedactions);
  let n = 0;
  for (const e of s.events) if (CONTENT_MESSAGE_EVENTS[e.name] === undefined) s.events[n++] = e;
  s.events.length = n;
}

const hexCodes: number[][] = [new Array<number>(16).fill(0), new Array<number>(32).fill(0)];

/** Lowercase hex of `size` bytes at `at` (ProtoReader.readId's text). */
export function hexAt(buf: Uint8Array, at: number, size: 8 | 16): string {
  const codes = size === 8 ? hexCodes[0]! : hexCodes[1]!;
  for (let i = 0; i < size; i++) {
    const byte = buf[at + i]!;
    codes[2 * i] = HEX_CODES[2 * byte]!;
    codes[2 * i + 1] = HEX_CODES[2 * byte + 1]!;
  }
  return String.fromCharCode.apply(null, codes);
}

/** Whether `size` bytes at `at` are all zero. */
export function zeroAt(buf: Uint8Array, at: number, size: number): boolean {
  for (let i = 0; i < size; i++) if (buf[at + i] !== 0) return false;
  return true;
}

/** The request-wide part of a row: the caller's project, the span's resource and scope. */
export interface RowContext {
  projectId: string;
  serviceName: string;
  resource: readonly { key: string; value: unknown }[];
  scopeName: string;
  scopeVersion: string;
  limits: SpanLimits;
  counts: LimitCounts;
}

/** The last parent id made (its 8 bytes as two words): siblings come one after another. */
let parentFirst = 0;
let parentSecond = 0;
let parentText = '';

/** The hex of the parent id at `at` ('' when absent or all zero), made again only when it differs from the last. */
function parentIdAt(buf: Uint8Array, view: DataView, at: number): string {
  if (at < 0) return '';
  const first = view.getInt32(at, true);
  const second = view.getInt32(at + 4, true);
  if (first === 0 && second === 0) return '';
  if (first !== parentFirst || second !== parentSecond || parentText === '') {
    parentFirst = first;
    parentSecond = second;
    parentText = hexAt(buf, at, 8);
  }
  return parentText;
}

const fields = new SpanFields();
const derived = emptyDerivedColumns();

/** Writes a text column value from body bytes: copied when valid UTF-8, else decoded (bad bytes become U+FFFD). */
function pushText(col: SpanColumns['traceState'], r: ProtoReader, at: number, len: number): void {
  if (validUtf8(r.buf, at, len)) col.pushBytes(r.buf, at, at + len);
  else col.push(r.stringAt(at, len));
}

/**
 * Writes the row of an accepted span that carries no content into `cols`
 * (every column but the late ones) and fills `row`, as normaliseRequest's
 * acceptSpan and SpanColumns.addEarly would: attributes and events cut to
 * the limits, canonical fields read, step derived. Scratch slots
 * [`fieldsFrom`, `fieldsTo`) feed the canonical fields too (the content
 * attributes splitScratchContent moved past the span's attributes).
 */
export function writeSpanRow(
  cols: SpanColumns,
  r: ProtoReader,
  s: SpanScratch,
  traceId: string,
  spanId: string,
  startTimeUnixNano: bigint,
  /** The end time's fixed64, -1 when absent (0). */
  endAt: number,
  view: DataView,
  ctx: RowContext,
  row: FusedRow,
  fieldsFrom = 0,
  fieldsTo = 0,
): void {
  const { limits, counts } = ctx;
  const buf = r.buf;
  const kept = Math.min(s.attributes, limits.maxAttributes);
  const droppedAttributes = s.attributes - kept;
  counts.droppedAttributes += droppedAttributes;
  // most spans have neither: skip the (allocating) limit pass for them
  const events = s.events.length === 0 ? s.events : limitItems(s.events, limits.maxEvents, limits, counts);
  const links = s.links.length === 0 ? s.links : limitItems(s.links, limits.maxLinks, limits, counts);
  counts.droppedEvents += s.events.length - events.length;
  counts.droppedLinks += s.links.length - links.length;

  fields.begin();
  for (let i = 0; i < kept; i++) {
    const codes = s.infos[i]!.codes;
    if (codes !== undefined) fields.offer(codes, fieldValue(r, s, i, limits.maxValueBytes));
  }
  for (let i = fieldsFrom; i < fieldsTo; i++) {
    const codes = s.infos[i]!.codes;
    if (codes !== undefined) fields.offer(codes, fieldValue(r, s, i, limits.maxValueBytes));
  }
  const parentSpanId = parentIdAt(buf, view, s.parentSpanIdAt);
  const statusCode = s.statusCode === 1 || s.statusCode === 2 ? s.statusCode : 0;
  const d = deriveColumns(derived, fields, traceId, s.name, parentSpanId, s.statusCode, events);

  cols.beginRow();
  cols.projectId.pushSame(ctx.projectId);
  cols.traceId.pushHex(buf, s.traceIdAt, 16);
  cols.spanId.pushHex(buf, s.spanIdAt, 8);
  if (parentSpanId === '') cols.parentSpanId.push('');
  else cols.parentSpanId.pushHex(buf, s.parentSpanIdAt, 8);
  pushText(cols.traceState, r, s.traceStateAt, s.traceStateLen);
  cols.isRunRoot.push(d.isRunRoot);
  cols.serviceName.pushSame(ctx.serviceName);
  cols.name.push(s.name);
  cols.spanKind.push(s.kind);
  cols.stepKind.push(d.stepKind);
  cols.stepName.push(d.stepName);
  cols.attempt.push(d.attempt);
  cols.toolName.push(d.toolName);
  cols.toolArgsHash.push(d.toolArgsHash);
  cols.stateHash.push(d.stateHash);
  cols.outputHash.push(d.outputHash);
  cols.sideEffect.push(d.sideEffect);
  cols.model.push(d.model);
  cols.provider.push(d.provider);
  cols.startTime.push(startTimeUnixNano);
  if (endAt < 0) cols.endTime.pushHalves(0, 0);
  else cols.endTime.pushHalves(view.getUint32(endAt, true), view.getUint32(endAt + 4, true));
  cols.statusCode.push(statusCode);
  pushText(cols.statusMessage, r, s.statusMessageAt, s.statusMessageLen);
  cols.errorType.push(d.errorType);
  cols.runOutcome.push(d.runOutcome);
  writeAttributes(cols, r, s, kept, limits, counts);
  cols.addResourceAttributes(ctx.resource as Parameters<SpanColumns['addResourceAttributes']>[0]);
  cols.scopeName.pushSame(ctx.scopeName);
  cols.scopeVersion.pushSame(ctx.scopeVersion);
  cols.addEvents(events);
  cols.addLinks(links);
  cols.droppedAttributesCount.push(s.droppedAttributes + droppedAttributes);
  cols.droppedEventsCount.push(s.droppedEvents + (s.events.length - events.length));
  cols.droppedLinksCount.push(s.droppedLinks + (s.links.length - links.length));

  row.traceId = traceId;
  row.spanId = spanId;
  row.parentSpanId = parentSpanId;
  row.runId = d.runId;
  row.stepKind = d.stepKind;
  row.inputTokens = d.inputTokens;
  row.outputTokens = d.outputTokens;
  row.cachedInputTokens = d.cachedInputTokens;
  row.costUsd = d.costUsd;
  row.serviceName = ctx.serviceName;
  row.startTimeUnixNano = startTimeUnixNano;
  row.statusCode = statusCode;
  row.toolName = d.toolName;
  row.stepName = d.stepName;
  row.toolArgsHash = d.toolArgsHash;
  row.stateHash = d.stateHash;
  row.outputHash = d.outputHash;
}
