import { OtelAttr, StepKind } from '@telltale/semconv';
import type { SpanRecord } from '@telltale/store';
import type { OtlpSpan, OtlpTraceRequest } from '../otlp/types.js';
import { readBool, readCount, readNumber, readString, toAttributeMap, type AttributeMap } from './attributeLookup.js';
import { resolveStepKind } from './stepKind.js';
import { DEFAULT_SPAN_LIMITS, emptyLimitCounts, limitAttributes, limitSpan, limitsWarning, timeRangeReason, type SpanLimits } from './spanLimits.js';
import { stableSpanName } from './stepName.js';

export interface NormaliseResult {
  spans: SpanRecord[];
  rejectedSpans: number;
  /** The first rejection reasons, then what the limits cut, for `partial_success.error_message`. */
  errors: string[];
}

export interface NormaliseOptions {
  limits?: SpanLimits;
  /** The clock the time-range limits are checked against (tests). */
  nowMs?: number;
}

const ZERO_TRACE_ID = '0'.repeat(32);
const ZERO_SPAN_ID = '0'.repeat(16);
const MAX_REPORTED_ERRORS = 5;

/** Why a span cannot be stored, or undefined when it can. */
function rejectReason(span: OtlpSpan): string | undefined {
  if (span.traceId.length !== 32 || span.traceId === ZERO_TRACE_ID) return 'invalid trace id';
  if (span.spanId.length !== 16 || span.spanId === ZERO_SPAN_ID) return 'invalid span id';
  if (span.startTimeUnixNano === 0n) return 'missing start time';
  if (span.endTimeUnixNano < span.startTimeUnixNano) return 'end time before start time';
  return undefined;
}

/** The `error.type` of a failed span, falling back to its recorded exception. */
function errorTypeOf(span: OtlpSpan, attrs: AttributeMap): string {
  const declared = readString(attrs, 'errorType');
  if (declared !== '' || span.status.code !== 2) return declared;
  for (const event of span.events) {
    if (event.name !== 'exception') continue;
    const type = event.attributes.find((kv) => kv.key === OtelAttr.exceptionType)?.value;
    if (typeof type === 'string') return type;
  }
  return '';
}

function toRecord(span: OtlpSpan, projectId: string, serviceName: string, resource: SpanRecord['resourceAttributes'], scope: { name: string; version: string }): SpanRecord {
  const attrs = toAttributeMap(span.attributes);
  const parentSpanId = span.parentSpanId === ZERO_SPAN_ID ? '' : span.parentSpanId;
  const stepKind = resolveStepKind(attrs, span.name, parentSpanId === '');
  const toolName = readString(attrs, 'toolName');
  const stepName = stepKind === '' ? '' : readString(attrs, 'stepName') || (stepKind === StepKind.tool ? toolName : '') || stableSpanName(span.name);
  return {
    projectId,
    traceId: span.traceId,
    spanId: span.spanId,
    parentSpanId,
    traceState: span.traceState,
    runId: readString(attrs, 'runId') || span.traceId,
    isRunRoot: stepKind === StepKind.run || parentSpanId === '',
    serviceName,
    name: span.name,
    spanKind: span.kind,
    stepKind,
    stepName,
    attempt: Math.min(readCount(attrs, 'attempt'), 65_535),
    toolName,
    toolArgsHash: readString(attrs, 'toolArgsHash'),
    stateHash: readString(attrs, 'stateHash'),
    outputHash: readString(attrs, 'outputHash'),
    sideEffect: readBool(attrs, 'sideEffect'),
    model: readString(attrs, 'model'),
    provider: readString(attrs, 'provider'),
    inputTokens: readCount(attrs, 'inputTokens'),
    outputTokens: readCount(attrs, 'outputTokens'),
    cachedInputTokens: readCount(attrs, 'cachedInputTokens'),
    costUsd: readNumber(attrs, 'costUsd'),
    startTimeUnixNano: span.startTimeUnixNano,
    endTimeUnixNano: span.endTimeUnixNano,
    statusCode: span.status.code === 1 || span.status.code === 2 ? span.status.code : 0,
    statusMessage: span.status.message,
    errorType: errorTypeOf(span, attrs),
    runOutcome: readString(attrs, 'runOutcome'),
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

/**
 * Turns a decoded OTLP request into canonical span records for one project.
 * Invalid spans are rejected one by one, never the whole batch: bad ids or
 * times, a start outside the accepted time range, spans beyond the
 * per-request cap. Oversized attribute lists, values, events and links are
 * cut to the limits and counted (the spans' dropped counts, and a warning).
 */
export function normaliseRequest(request: OtlpTraceRequest, projectId: string, opts: NormaliseOptions = {}): NormaliseResult {
  const limits = opts.limits ?? DEFAULT_SPAN_LIMITS;
  const nowMs = opts.nowMs ?? Date.now();
  const counts = emptyLimitCounts();
  const spans: SpanRecord[] = [];
  const errors: string[] = [];
  let rejectedSpans = 0;
  let seen = 0;
  for (const rs of request.resourceSpans) {
    const service = rs.resource.attributes.findLast((kv) => kv.key === OtelAttr.serviceName)?.value;
    const serviceName = typeof service === 'string' && service !== '' ? service : 'unknown_service';
    const resource = limitAttributes(rs.resource.attributes, limits, counts).attributes;
    for (const ss of rs.scopeSpans) {
      for (const span of ss.spans) {
        const reason =
          ++seen > limits.maxSpansPerRequest ? `over the limit of ${limits.maxSpansPerRequest} spans per request` : (rejectReason(span) ?? timeRangeReason(span, limits, nowMs));
        if (reason === undefined) {
          spans.push(toRecord(limitSpan(span, limits, counts), projectId, serviceName, resource, ss.scope));
          continue;
        }
        rejectedSpans++;
        if (errors.length < MAX_REPORTED_ERRORS) errors.push(`span ${span.spanId || '(no id)'}: ${reason}`);
      }
    }
  }
  const warning = limitsWarning(counts, limits);
  if (warning !== undefined) errors.push(warning);
  return { spans, rejectedSpans, errors };
}
