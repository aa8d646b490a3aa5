import { OtelAttr, StepKind } from '@telltale/semconv';
import type { SpanContentRecord, SpanRecord } from '@telltale/store/encode';
import type { OtlpSpan, OtlpTraceRequest } from '../otlp/types.js';
import { argsHash } from './argsHash.js';
import { Field, SpanFields } from './attributeLookup.js';
import { resolveStepKind } from './stepKind.js';
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
import { stableSpanName } from './stepName.js';
import { NestedUsage } from './nestedUsage.js';
import { TraceRuns } from './traceRuns.js';
import { splitContent } from './extractContent.js';
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

/** Why a span cannot be stored, or undefined when it can. */
function rejectReason(span: OtlpSpan): string | undefined {
  if (span.traceId.length !== 32 || span.traceId === ZERO_TRACE_ID) return 'invalid trace id';
  if (span.spanId.length !== 16 || span.spanId === ZERO_SPAN_ID) return 'invalid span id';
  if (span.startTimeUnixNano === 0n) return 'missing start time';
  if (span.endTimeUnixNano < span.startTimeUnixNano) return 'end time before start time';
  return undefined;
}

/** The `error.type` of a failed span, falling back to its recorded exception. */
function errorTypeOf(span: OtlpSpan, fields: SpanFields): string {
  const declared = fields.string(Field.errorType);
  if (declared !== '' || span.status.code !== 2) return declared;
  for (const event of span.events) {
    if (event.name !== 'exception') continue;
    const type = event.attributes.find((kv) => kv.key === OtelAttr.exceptionType)?.value;
    if (typeof type === 'string') return type;
  }
  return '';
}

/** An explicit cost: the total, else the sum of the prompt and completion parts that are given. */
function costOf(fields: SpanFields): number | null {
  const total = fields.number(Field.costUsd);
  if (total !== null) return total;
  const prompt = fields.number(Field.costPromptUsd);
  const completion = fields.number(Field.costCompletionUsd);
  return prompt === null && completion === null ? null : (prompt ?? 0) + (completion ?? 0);
}

/**
 * `{operation} {subject}` for a GenAI span, as the spec names its spans:
 * the agent for agent operations, else the requested model; '' without an
 * operation or subject.
 */
function genAiStepName(fields: SpanFields): string {
  const operation = fields.string(Field.genAiOperation);
  if (operation === '') return '';
  const subject = fields.string(Field.genAiAgentName) || fields.string(Field.genAiRequestModel);
  return subject === '' ? '' : `${operation} ${subject}`;
}

/** This thread's index of runs by trace (see TraceRuns). */
const threadTraceRuns = new TraceRuns();
/** This thread's parents of usage-bearing spans (see NestedUsage). */
const threadNestedUsage = new NestedUsage();

/** One reader for every span of every request (normalising is synchronous and one per thread). */
const fields = new SpanFields();

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
  const stepKind = resolveStepKind(fields, span.name, parentSpanId === '');
  const isTool = stepKind === StepKind.tool;
  // tool steps without a tool-name attribute: OpenLLMetry names them in traceloop.entity.name, OpenInference in the span name
  const toolName = fields.string(Field.toolName) || (isTool ? fields.string(Field.entityName) || span.name : '');
  const stepName =
    stepKind === ''
      ? ''
      : fields.string(Field.stepName) ||
        (isTool ? toolName : '') ||
        fields.string(Field.entityName) ||
        genAiStepName(fields) ||
        stableSpanName(span.name);
  let inputTokens = fields.count(Field.inputTokens);
  const outputTokens = fields.count(Field.outputTokens);
  if (inputTokens === 0 && outputTokens === 0) inputTokens = fields.count(Field.totalTokens);
  return {
    projectId,
    traceId: span.traceId,
    spanId: span.spanId,
    parentSpanId,
    traceState: span.traceState,
    runId: fields.string(Field.runId) || span.traceId,
    isRunRoot: stepKind === StepKind.run || parentSpanId === '',
    serviceName,
    name: span.name,
    spanKind: span.kind,
    stepKind,
    stepName,
    attempt: Math.min(fields.count(Field.attempt), 65_535),
    toolName,
    toolArgsHash: fields.string(Field.toolArgsHash) || (isTool ? argsHash(fields.value(Field.toolArgs)) : ''),
    stateHash: fields.string(Field.stateHash),
    outputHash: fields.string(Field.outputHash),
    sideEffect: fields.bool(Field.sideEffect),
    model: fields.string(Field.model),
    provider: fields.string(Field.provider),
    inputTokens,
    outputTokens,
    cachedInputTokens: fields.count(Field.cachedInputTokens),
    costUsd: costOf(fields),
    startTimeUnixNano: span.startTimeUnixNano,
    endTimeUnixNano: span.endTimeUnixNano,
    statusCode: span.status.code === 1 || span.status.code === 2 ? span.status.code : 0,
    statusMessage: span.status.message,
    errorType: errorTypeOf(span, fields),
    runOutcome: fields.string(Field.runOutcome),
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
  const withContent: { record: SpanRecord; split: NonNullable<ReturnType<typeof splitContent>['content']> }[] = [];
  for (const rs of request.resourceSpans) {
    const service = rs.resource.attributes.findLast((kv) => kv.key === OtelAttr.serviceName)?.value;
    const serviceName = typeof service === 'string' && service !== '' ? service : 'unknown_service';
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
          // content leaves the span before the limits apply: it has its own, larger, limit
          const split = splitContent(span);
          const limited = limitSpan(split.span, limits, counts);
          // tool arguments are hashed as before (cut to the attribute limit), though no longer stored with the span
          const fieldAttributes =
            split.contentAttributes.length === 0
              ? limited.attributes
              : [
                  ...limited.attributes,
                  ...limitAttributes(split.contentAttributes, limits, emptyLimitCounts()).attributes,
                ];
          const record = toRecord(limited, projectId, serviceName, resource, ss.scope, fieldAttributes);
          spans.push(record);
          if (split.content !== undefined) {
            if (keepContent) withContent.push({ record, split: split.content });
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
  const contents = withContent.map(({ record, split }): SpanContentRecord => {
    const cut = limitContent(split.input, split.output, limits.maxContentBytes);
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
  });
  if (content.truncated > 0) errors.push(`${content.truncated} spans' content cut to ${limits.maxContentBytes} bytes`);
  return { spans, rejectedSpans, rejectedBy, cut: counts, errors, contents, content };
}
