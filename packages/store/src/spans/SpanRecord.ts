import type { AttributeValue } from '../attributeValue.js';

/** A span as the collector hands it to the store: normalised, attributes still typed. */
export interface SpanRecord {
  projectId: string;
  traceId: string;
  spanId: string;
  /** '' for a trace root. */
  parentSpanId: string;
  traceState: string;
  runId: string;
  isRunRoot: boolean;
  serviceName: string;
  name: string;
  spanKind: number;
  /** '' when the span is not a step. */
  stepKind: string;
  stepName: string;
  /** 0 when unknown. */
  attempt: number;
  toolName: string;
  toolArgsHash: string;
  stateHash: string;
  outputHash: string;
  sideEffect: boolean;
  model: string;
  provider: string;
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
  costUsd: number | null;
  startTimeUnixNano: bigint;
  endTimeUnixNano: bigint;
  /** 0 UNSET, 1 OK, 2 ERROR. */
  statusCode: number;
  statusMessage: string;
  errorType: string;
  runOutcome: string;
  attributes: ReadonlyArray<{ key: string; value: AttributeValue }>;
  resourceAttributes: ReadonlyArray<{ key: string; value: AttributeValue }>;
  scopeName: string;
  scopeVersion: string;
  events: ReadonlyArray<{
    timeUnixNano: bigint;
    name: string;
    attributes: ReadonlyArray<{ key: string; value: AttributeValue }>;
  }>;
  links: ReadonlyArray<{
    traceId: string;
    spanId: string;
    traceState: string;
    attributes: ReadonlyArray<{ key: string; value: AttributeValue }>;
  }>;
  droppedAttributesCount: number;
  droppedEventsCount: number;
  droppedLinksCount: number;
}
