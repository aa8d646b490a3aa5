import { OtelAttr, StepKind } from '@telltale/semconv';
import type { SpanRecord } from '@telltale/store';
import type { OtlpSpan, OtlpTraceRequest } from '../otlp/types.js';
import { readBool, readCount, readNumber, readString, toAttributeMap, type AttributeMap } from './attributeLookup.js';
import { resolveStepKind } from './stepKind.js';
import { stableSpanName } from './stepName.js';

export interface NormaliseResult {
  spans: SpanRecord[];
  rejectedSpans: number;
  /** The first rejection reasons, for `partial_success.error_message`. */
  errors: string[];
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
 * Invalid spans are rejected one by one, never the whole batch.
 */
export function normaliseRequest(request: OtlpTraceRequest, projectId: string): NormaliseResult {
  const spans: SpanRecord[] = [];
  const errors: string[] = [];
  let rejectedSpans = 0;
  for (const rs of request.resourceSpans) {
    const service = rs.resource.attributes.findLast((kv) => kv.key === OtelAttr.serviceName)?.value;
    const serviceName = typeof service === 'string' && service !== '' ? service : 'unknown_service';
    for (const ss of rs.scopeSpans) {
      for (const span of ss.spans) {
        const reason = rejectReason(span);
        if (reason === undefined) {
          spans.push(toRecord(span, projectId, serviceName, rs.resource.attributes, ss.scope));
          continue;
        }
        rejectedSpans++;
        if (errors.length < MAX_REPORTED_ERRORS) errors.push(`span ${span.spanId || '(no id)'}: ${reason}`);
      }
    }
  }
  return { spans, rejectedSpans, errors };
}
