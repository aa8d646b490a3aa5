import type { JsonValue } from '../attributeValue.js';

/** A stored span as the API returns it. Times are decimal nanosecond strings. */
export interface SpanDetail {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  traceState: string;
  runId: string;
  name: string;
  kind: number;
  serviceName: string;
  stepKind: string;
  stepName: string;
  attempt: number;
  toolName: string;
  toolArgsHash: string;
  stateHash: string;
  sideEffect: boolean;
  model: string;
  provider: string;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  durationNs: string;
  status: { code: 'unset' | 'ok' | 'error'; message: string };
  errorType: string;
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
  /** Of the output tokens, those spent reasoning (migration 0007; already counted in outputTokens). */
  reasoningTokens: number;
  /** Its own cost attribute, else its tokens at the project's prices (a model span); null when neither is known. */
  costUsd: number | null;
  /** The session / conversation id the span names ('' for none; migration 0007). */
  sessionId: string;
  scope: { name: string; version: string };
  attributes: Record<string, JsonValue>;
  resourceAttributes: Record<string, JsonValue>;
  events: { timeUnixNano: string; name: string; attributes: Record<string, JsonValue> }[];
  links: { traceId: string; spanId: string; traceState: string; attributes: Record<string, JsonValue> }[];
  /** What the sender's SDK or the collector's limits dropped (OTLP's dropped counts). */
  dropped: { attributes: number; events: number; links: number };
}
