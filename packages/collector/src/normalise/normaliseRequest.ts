import { OtelAttr } from '@telltale/semconv';
import type { SpanContentRecord, SpanRecord } from '@telltale/store/encode';
import type { OtlpSpan, OtlpTraceRequest } from '../otlp/types.js';
import { SpanFields } from './attributeLookup.js';
import { deriveColumns, emptyDerivedColumns } from './deriveColumns.js';
import {
  DEFAULT_SPAN_LIMITS,
  emptyLimitCounts,
  limitAttributes,
  limitSpan,
  limitsWarning,
  timeRangeReason,
  type LimitCounts,
  type SpanLimits,
} from './spanLimits.js';
import { NestedUsage } from './nestedUsage.js';
import { TraceRuns } from './traceRuns.js';
import { splitContent, type SplitSpan } from './extractContent.js';
import { limitContent } from './limitContent.js';
import type { KeyValue } from '../otlp/types.js';

export interface NormaliseResult {
  spans: SpanRecord[];
  rejectedSpans: number;
  /** `rejectedSpans` by reason (operators' counters). */
  rejectedBy: RejectCounts;
  /** What the limits cut from the accepted spans (operators' counters). */
  cut: LimitCounts;
  /** The first rejection reasons, then what the limits cut, for `partial_success.error_message`. */
  errors: string[];
  /** The content of the accepted spans, moved out of their rows (empty when content is not kept). */
  contents: SpanContentRecord[];
  /** What happened to content (operators' counters). */
  content: ContentCounts;
}

/** Spans whose content was kept, cut to the limit, or dropped (the project keeps none), and the bytes kept. */
export interface ContentCounts {
  kept: number;
  truncated: number;
  dropped: number;
  storedBytes: number;
}

/** Rejected spans by reason: past the per-request cap, invalid ids or times, a start outside the accepted range. */
export interface RejectCounts {
  overRequestLimit: number;
  invalid: number;
  outOfTimeRange: number;
}

export interface NormaliseOptions {
  limits?: SpanLimits;
  /** Where untagged spans find their trace's run (default: one index per thread). */
  traceRuns?: TraceRuns;
  /** Which spans have usage-bearing children (default: one index per thread). */
  nestedUsage?: NestedUsage;
  /** The clock the time-range limits are checked against (tests). */
  nowMs?: number;
  /** false: the project keeps no content: it is dropped (and counted), never stored. Default true. */
  keepContent?: boolean;
}

const ZERO_TRACE_ID = '0'.repeat(32);
const ZERO_SPAN_ID = '0'.repeat(16);
const MAX_REPORTED_ERRORS = 5;

/** Why a span cannot be stored (the fused decoder gives the same reasons). */
export const REJECT_REASON = {
  traceId: 'invalid trace id',
  spanId: 'invalid span id',
  noStart: 'missing start time',
  endBeforeStart: 'end time before start time',
} as const;

/** Why a span cannot be stored, or undefined when it can. */
function rejectReason(span: OtlpSpan): string | undefined {
  if (span.traceId.length !== 32 || span.traceId === ZERO_TRACE_ID) return REJECT_REASON.traceId;
  if (span.spanId.length !== 16 || span.spanId === ZERO_SPAN_ID) return REJECT_REASON.spanId;
  if (span.startTimeUnixNano === 0n) return REJECT_REASON.noStart;
  if (span.endTimeUnixNano < span.startTimeUnixNano) return REJECT_REASON.endBeforeStart;
  return undefined;
}

/** This thread's index of runs by trace (see TraceRuns). */
export const threadTraceRuns = new TraceRuns();
/** This thread's parents of usage-bearing spans (see NestedUsage). */
export const threadNestedUsage = new NestedUsage();

/** One reader for every span of every request (normalising is synchronous and one per thread). */
const fields = new SpanFields();
/** Reused: toRecord copies its values out. */
const derivedScratch = emptyDerivedColumns();

function toRecord(
  span: OtlpSpan,
  projectId: string,
  serviceName: string,
  resource: SpanRecord['resourceAttributes'],
  scope: { name: string; version: string },
  fieldAttributes: KeyValue[] = span.attributes,
): SpanRecord {
  fields.read(fieldAttributes);
  const parentSpanId = span.parentSpanId === ZERO_SPAN_ID ? '' : span.parentSpanId;
  const statusCode = span.status.code === 1 || span.status.code === 2 ? span.status.code : 0;
  const d = deriveColumns(derivedScratch, fields, span.traceId, span.name, parentSpanId, span.status.code, span.events);
  // written out (no spread): every record gets the same shape, which keeps the encoder's property reads fast
  return {
    projectId,
    traceId: span.traceId,
    spanId: span.spanId,
    parentSpanId,
    traceState: span.traceState,
    runId: d.runId,
    isRunRoot: d.isRunRoot,
    serviceName,
    name: span.name,
    spanKind: span.kind,
    stepKind: d.stepKind,
    stepName: d.stepName,
    attempt: d.attempt,
    toolName: d.toolName,
    toolArgsHash: d.toolArgsHash,
    stateHash: d.stateHash,
    outputHash: d.outputHash,
    sideEffect: d.sideEffect,
    model: d.model,
    provider: d.provider,
    inputTokens: d.inputTokens,
    outputTokens: d.outputTokens,
    cachedInputTokens: d.cachedInputTokens,
    costUsd: d.costUsd,
    startTimeUnixNano: span.startTimeUnixNano,
    endTimeUnixNano: span.endTimeUnixNano,
    statusCode,
    statusMessage: span.status.message,
    errorType: d.errorType,
    runOutcome: d.runOutcome,
    attributes: span.attributes,
    resourceAttributes: resource,
    scopeName: scope.name,
    scopeVersion: scope.version,
    events: span.events,
    links: span.links,
    droppedAttributesCount: span.droppedAttributesCount,
    droppedEventsCount: span.droppedEventsCount,
    droppedLinksCount: span.droppedLinksCount,
  };
}

/** The content a span carried, as splitContent read it. */
export type SplitContent = NonNullable<SplitSpan['content']>;

/**
 * An accepted span as a record: its content split off, the limits applied
 * (counted into `counts`), its columns derived. The one per-span step of
 * normaliseRequest; the fused protobuf path calls it for the spans that
 * carry content.
 */
export function acceptSpan(
  span: OtlpSpan,
  projectId: string,
  serviceName: string,
  resource: SpanRecord['resourceAttributes'],
  scope: { name: string; version: string },
  limits: SpanLimits,
  counts: LimitCounts,
): { record: SpanRecord; content: SplitContent | undefined } {
  // content leaves the span before the limits apply: it has its own, larger, limit
  const split = splitContent(span);
  const limited = limitSpan(split.span, limits, counts);
  // tool arguments are hashed as before (cut to the attribute limit), though no longer stored with the span
  const fieldAttributes =
    split.contentAttributes.length === 0
      ? limited.attributes
      : [...limited.attributes, ...limitAttributes(split.contentAttributes, limits, emptyLimitCounts()).attributes];
  return {
    record: toRecord(limited, projectId, serviceName, resource, scope, fieldAttributes),
    content: split.content,
  };
}

/** The content row of an accepted span, cut to the content limit (counted into `content`). */
export function contentRecordOf(
  projectId: string,
  record: Pick<SpanRecord, 'traceId' | 'spanId' | 'runId' | 'startTimeUnixNano'>,
  split: SplitContent,
  maxContentBytes: number,
  content: ContentCounts,
): SpanContentRecord {
  const cut = limitContent(split.input, split.output, maxContentBytes);
  content.kept++;
  if (cut.truncated) content.truncated++;
  content.storedBytes += cut.storedBytes;
  return {
    projectId,
    traceId: record.traceId,
    spanId: record.spanId,
    runId: record.runId,
    startTimeUnixNano: record.startTimeUnixNano,
    input: split.input,
    output: split.output,
    truncated: cut.truncated,
    originalBytes: cut.originalBytes,
    capture: split.capture,
    redactions: split.redactions,
  };
}

/** The service a resource names ('unknown_service' when none). */
export function serviceNameOf(resourceAttributes: readonly KeyValue[]): string {
  const service = resourceAttributes.findLast((kv) => kv.key === OtelAttr.serviceName)?.value;
  return typeof service === 'string' && service !== '' ? service : 'unknown_service';
}

/**
 * Turns a decoded OTLP request into canonical span records for one project.
 * A span's run is its `telltale.run.id`, else the run other spans of its
 * trace named (TraceRuns), else its trace id — never a lookup of its parent
 * in storage, so a parent that arrives later, or never, changes nothing.
 * Invalid spans are rejected one by one, never the whole batch: bad ids or
 * times, a start outside the accepted time range, spans beyond the
 * per-request cap. Oversized attribute lists, values, events and links are
 * cut to the limits and counted (the spans' dropped counts, and a warning).
 */
export function normaliseRequest(
  request: OtlpTraceRequest,
  projectId: string,
  opts: NormaliseOptions = {},
): NormaliseResult {
  const limits = opts.limits ?? DEFAULT_SPAN_LIMITS;
  const nowMs = opts.nowMs ?? Date.now();
  const counts = emptyLimitCounts();
  const spans: SpanRecord[] = [];
  const errors: string[] = [];
  let rejectedSpans = 0;
  const rejectedBy: RejectCounts = { overRequestLimit: 0, invalid: 0, outOfTimeRange: 0 };
  let seen = 0;
  const keepContent = opts.keepContent !== false;
  const content: ContentCounts = { kept: 0, truncated: 0, dropped: 0, storedBytes: 0 };
  const withContent: { record: SpanRecord; split: SplitContent }[] = [];
  for (const rs of request.resourceSpans) {
    const serviceName = serviceNameOf(rs.resource.attributes);
    const resource = limitAttributes(rs.resource.attributes, limits, counts).attributes;
    for (const ss of rs.scopeSpans) {
      for (const span of ss.spans) {
        let reason: string | undefined;
        if (++seen > limits.maxSpansPerRequest) {
          reason = `over the limit of ${limits.maxSpansPerRequest} spans per request`;
          rejectedBy.overRequestLimit++;
        } else if ((reason = rejectReason(span)) !== undefined) rejectedBy.invalid++;
        else if ((reason = timeRangeReason(span, limits, nowMs)) !== undefined) rejectedBy.outOfTimeRange++;
        if (reason === undefined) {
          const { record, content: split } = acceptSpan(
            span,
            projectId,
            serviceName,
            resource,
            ss.scope,
            limits,
            counts,
          );
          spans.push(record);
          if (split !== undefined) {
            if (keepContent) withContent.push({ record, split });
            else content.dropped++;
          }
          continue;
        }
        rejectedSpans++;
        if (errors.length < MAX_REPORTED_ERRORS) errors.push(`span ${span.spanId || '(no id)'}: ${reason}`);
      }
    }
  }
  (opts.traceRuns ?? threadTraceRuns).assign(projectId, spans);
  (opts.nestedUsage ?? threadNestedUsage).apply(projectId, spans);
  const warning = limitsWarning(counts, limits);
  if (warning !== undefined) errors.push(warning);
  const contents = withContent.map(({ record, split }) =>
    contentRecordOf(projectId, record, split, limits.maxContentBytes, content),
  );
  if (content.truncated > 0) errors.push(`${content.truncated} spans' content cut to ${limits.maxContentBytes} bytes`);
  return { spans, rejectedSpans, rejectedBy, cut: counts, errors, contents, content };
}
