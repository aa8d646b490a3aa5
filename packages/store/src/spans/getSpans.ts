import type { ClickHouseClient } from '@clickhouse/client';
import { EMPTY_PRICE_TABLE, type PriceTable } from '../analytics/AnalyticsFilter.js';
import { decodeAttributes, type JsonValue } from '../attributeValue.js';
import { AGGREGATE_KINDS_SQL, priceParams, TOKENS_PRICED_SQL } from '../sql/sqlParts.js';
import type { SpanDetail } from './SpanDetail.js';

interface SpanReadRow {
  trace_id: string;
  span_id: string;
  parent_span_id: string;
  trace_state: string;
  run_id: string;
  name: string;
  span_kind: number;
  service_name: string;
  step_kind: string;
  step_name: string;
  attempt: number;
  tool_name: string;
  tool_args_hash: string;
  state_hash: string;
  side_effect: boolean;
  model: string;
  provider: string;
  start_ns: string;
  end_ns: string;
  duration_ns: string;
  status_code: number;
  status_message: string;
  error_type: string;
  input_tokens: string | number;
  output_tokens: string | number;
  cached_input_tokens: string | number;
  reasoning_tokens: string | number;
  cost_usd: number | null;
  /** The tokens at the price table's prices, for a span with usage and no cost of its own (else null; NaN unpriced). */
  priced_usd: number | string | null;
  session_id: string;
  scope_name: string;
  scope_version: string;
  attributes: Record<string, string>;
  attribute_types: Record<string, string>;
  resource_attributes: Record<string, string>;
  events: [string, string, string][];
  links: [string, string, string, string][];
  dropped_attributes_count: number | string;
  dropped_events_count: number | string;
  dropped_links_count: number | string;
}

/** Columns of a span read back whole; `LIMIT 1 BY` hides a re-sent span until merges collapse it. */
const SPAN_SELECT = `
SELECT
    trace_id, span_id, parent_span_id, trace_state, run_id, name, span_kind, service_name,
    step_kind, step_name, attempt, tool_name, tool_args_hash, state_hash, side_effect, model, provider,
    toString(toUnixTimestamp64Nano(start_time)) AS start_ns,
    toString(toUnixTimestamp64Nano(end_time)) AS end_ns,
    toString(duration_ns) AS duration_ns,
    status_code, status_message, error_type, input_tokens, output_tokens, cached_input_tokens, reasoning_tokens, cost_usd, session_id,
    if(isNull(cost_usd) AND step_kind NOT IN ${AGGREGATE_KINDS_SQL} AND input_tokens + output_tokens > 0,
       ${TOKENS_PRICED_SQL}, NULL) AS priced_usd,
    scope_name, scope_version, attributes, attribute_types, resource_attributes,
    arrayMap(e -> (toString(toUnixTimestamp64Nano(e.time)), e.name, e.attributes), events) AS events,
    arrayMap(l -> (l.trace_id, l.span_id, l.trace_state, l.attributes), links) AS links,
    dropped_attributes_count, dropped_events_count, dropped_links_count
FROM spans`;

/**
 * Spans in start order. An SDK may stamp starts in whole milliseconds (the
 * OpenTelemetry JS SDK does) and ends as the start plus a precise duration,
 * so a retry can start in its failed attempt's millisecond and even seem to
 * end first: spans that start together go by attempt number, then end, then
 * span id.
 */
const SPAN_ORDER = 'ORDER BY start_time, attempt, end_time, span_id';

/** Every span of one run, in start order (SPAN_ORDER). */
export async function getRunSpans(
  client: ClickHouseClient,
  projectId: string,
  runId: string,
  prices: PriceTable = EMPTY_PRICE_TABLE,
): Promise<SpanDetail[]> {
  const result = await client.query({
    query: `${SPAN_SELECT}
WHERE project_id = {projectId:String} AND run_id = {runId:String}
${SPAN_ORDER}
LIMIT 1 BY trace_id, span_id`,
    format: 'JSONEachRow',
    query_params: { projectId, runId, ...priceParams(prices) },
  });
  return (await result.json<SpanReadRow>()).map(toSpanDetail);
}

/** Every span of one trace, in start order (SPAN_ORDER). */
export async function getTraceSpans(
  client: ClickHouseClient,
  projectId: string,
  traceId: string,
  prices: PriceTable = EMPTY_PRICE_TABLE,
): Promise<SpanDetail[]> {
  const result = await client.query({
    query: `${SPAN_SELECT}
WHERE project_id = {projectId:String} AND trace_id = {traceId:String}
${SPAN_ORDER}
LIMIT 1 BY trace_id, span_id`,
    format: 'JSONEachRow',
    query_params: { projectId, traceId: traceId.toLowerCase(), ...priceParams(prices) },
  });
  return (await result.json<SpanReadRow>()).map(toSpanDetail);
}

const STATUS = ['unset', 'ok', 'error'] as const;

function parseJsonObject(text: string): Record<string, JsonValue> {
  const value = JSON.parse(text) as unknown;
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, JsonValue>)
    : {};
}

function toSpanDetail(r: SpanReadRow): SpanDetail {
  // its own cost, else its tokens priced (a model the table has no price for: unknown)
  const priced = r.priced_usd === null ? Number.NaN : Number(r.priced_usd);
  const costUsd = r.cost_usd !== null ? Number(r.cost_usd) : Number.isFinite(priced) ? priced : null;
  return {
    traceId: r.trace_id,
    spanId: r.span_id,
    parentSpanId: r.parent_span_id,
    traceState: r.trace_state,
    runId: r.run_id,
    name: r.name,
    kind: Number(r.span_kind),
    serviceName: r.service_name,
    stepKind: r.step_kind,
    stepName: r.step_name,
    attempt: Number(r.attempt),
    toolName: r.tool_name,
    toolArgsHash: r.tool_args_hash,
    stateHash: r.state_hash,
    sideEffect: Boolean(r.side_effect),
    model: r.model,
    provider: r.provider,
    startTimeUnixNano: r.start_ns,
    endTimeUnixNano: r.end_ns,
    durationNs: r.duration_ns,
    status: { code: STATUS[Number(r.status_code)] ?? 'unset', message: r.status_message },
    errorType: r.error_type,
    inputTokens: Number(r.input_tokens),
    outputTokens: Number(r.output_tokens),
    cachedInputTokens: Number(r.cached_input_tokens),
    reasoningTokens: Number(r.reasoning_tokens),
    costUsd,
    sessionId: r.session_id,
    scope: { name: r.scope_name, version: r.scope_version },
    attributes: decodeAttributes(r.attributes, r.attribute_types),
    resourceAttributes: decodeAttributes(r.resource_attributes, {}),
    events: r.events.map(([time, name, attributes]) => ({
      timeUnixNano: time,
      name,
      attributes: parseJsonObject(attributes),
    })),
    links: r.links.map(([traceId, spanId, traceState, attributes]) => ({
      traceId,
      spanId,
      traceState,
      attributes: parseJsonObject(attributes),
    })),
    dropped: {
      attributes: Number(r.dropped_attributes_count),
      events: Number(r.dropped_events_count),
      links: Number(r.dropped_links_count),
    },
  };
}
