import { nanosToDateTime64 } from '../time.js';
import type { SpanRecord } from './SpanRecord.js';
import { toJsonObjectText, toTextMap } from './attributeMaps.js';

/** The row exactly as the `spans` table takes it in JSONEachRow. */
export interface SpanInsertRow {
  project_id: string;
  trace_id: string;
  span_id: string;
  parent_span_id: string;
  trace_state: string;
  run_id: string;
  is_run_root: boolean;
  service_name: string;
  name: string;
  span_kind: number;
  step_kind: string;
  step_name: string;
  attempt: number;
  tool_name: string;
  tool_args_hash: string;
  state_hash: string;
  output_hash: string;
  side_effect: boolean;
  model: string;
  provider: string;
  input_tokens: number;
  output_tokens: number;
  cached_input_tokens: number;
  cost_usd: number | null;
  start_time: string;
  end_time: string;
  status_code: number;
  status_message: string;
  error_type: string;
  run_outcome: string;
  attributes: Record<string, string>;
  attribute_types: Record<string, string>;
  resource_attributes: Record<string, string>;
  scope_name: string;
  scope_version: string;
  events: { time: string; name: string; attributes: string }[];
  links: { trace_id: string; span_id: string; trace_state: string; attributes: string }[];
  dropped_attributes_count: number;
  dropped_events_count: number;
  dropped_links_count: number;
}

export function toSpanInsertRow(s: SpanRecord): SpanInsertRow {
  const attributeTypes: Record<string, string> = {};
  return {
    project_id: s.projectId,
    trace_id: s.traceId,
    span_id: s.spanId,
    parent_span_id: s.parentSpanId,
    trace_state: s.traceState,
    run_id: s.runId,
    is_run_root: s.isRunRoot,
    service_name: s.serviceName,
    name: s.name,
    span_kind: s.spanKind,
    step_kind: s.stepKind,
    step_name: s.stepName,
    attempt: s.attempt,
    tool_name: s.toolName,
    tool_args_hash: s.toolArgsHash,
    state_hash: s.stateHash,
    output_hash: s.outputHash,
    side_effect: s.sideEffect,
    model: s.model,
    provider: s.provider,
    input_tokens: s.inputTokens,
    output_tokens: s.outputTokens,
    cached_input_tokens: s.cachedInputTokens,
    cost_usd: s.costUsd,
    start_time: nanosToDateTime64(s.startTimeUnixNano),
    end_time: nanosToDateTime64(s.endTimeUnixNano),
    status_code: s.statusCode,
    status_message: s.statusMessage,
    error_type: s.errorType,
    run_outcome: s.runOutcome,
    attributes: toTextMap(s.attributes, attributeTypes),
    attribute_types: attributeTypes,
    resource_attributes: toTextMap(s.resourceAttributes),
    scope_name: s.scopeName,
    scope_version: s.scopeVersion,
    events: s.events.map((e) => ({
      time: nanosToDateTime64(e.timeUnixNano),
      name: e.name,
      attributes: toJsonObjectText(e.attributes),
    })),
    links: s.links.map((l) => ({
      trace_id: l.traceId,
      span_id: l.spanId,
      trace_state: l.traceState,
      attributes: toJsonObjectText(l.attributes),
    })),
    dropped_attributes_count: s.droppedAttributesCount,
    dropped_events_count: s.droppedEventsCount,
    dropped_links_count: s.droppedLinksCount,
  };
}
