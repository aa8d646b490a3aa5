import { SESSION_ID_SOURCES } from '@telltale/semconv';
import { attributeText } from '../../attributeValue.js';
import type { SpanRecord } from '../../spans/SpanRecord.js';

/**
 * The columns of a stored span that the run facts read, as the spans table
 * holds them (`duration_ns` is end − start; `session_id` the first non-empty
 * of SESSION_ID_SOURCES, as migration 0007 materialises it).
 */
export interface FactSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  serviceName: string;
  isRunRoot: boolean;
  stepKind: string;
  stepName: string;
  attempt: number;
  toolName: string;
  toolArgsHash: string;
  stateHash: string;
  outputHash: string;
  sideEffect: boolean;
  model: string;
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
  costUsd: number | null;
  startNs: bigint;
  endNs: bigint;
  statusCode: number;
  errorType: string;
  runOutcome: string;
  sessionId: string;
}

/** The fact columns of a span record (strings shared, not copied). */
export function factSpanOf(s: SpanRecord): FactSpan {
  return {
    traceId: s.traceId,
    spanId: s.spanId,
    parentSpanId: s.parentSpanId,
    name: s.name,
    serviceName: s.serviceName,
    isRunRoot: s.isRunRoot,
    stepKind: s.stepKind,
    stepName: s.stepName,
    attempt: s.attempt,
    toolName: s.toolName,
    toolArgsHash: s.toolArgsHash,
    stateHash: s.stateHash,
    outputHash: s.outputHash,
    sideEffect: s.sideEffect,
    model: s.model,
    inputTokens: s.inputTokens,
    outputTokens: s.outputTokens,
    cachedInputTokens: s.cachedInputTokens,
    costUsd: s.costUsd,
    startNs: s.startTimeUnixNano,
    endNs: s.endTimeUnixNano,
    statusCode: s.statusCode,
    errorType: s.errorType,
    runOutcome: s.runOutcome,
    sessionId: sessionIdOf(s.attributes),
  };
}

/** The first non-empty session source (a map keeps a key's first value). */
function sessionIdOf(attributes: SpanRecord['attributes']): string {
  if (attributes.length === 0) return '';
  for (const source of SESSION_ID_SOURCES) {
    const kv = attributes.find((a) => a.key === source);
    if (kv === undefined) continue;
    const text = attributeText(kv.value);
    if (text !== '') return text;
  }
  return '';
}
