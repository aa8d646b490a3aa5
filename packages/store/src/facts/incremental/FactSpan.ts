import { SESSION_ID_SOURCES } from '@telltale/semconv';
import { attributeText } from '../../attributeValue.js';
import type { SpanRecord } from '../../spans/SpanRecord.js';

/**
 * The columns of a stored span that the run facts read, as the spans table
 * holds them (`duration_ns` is end − start; `session_id` the first non-empty
 * of SESSION_ID_SOURCES, as migration 0007 materialises it).
 */
export type FactSpan = Pick<
  SpanRecord,
  | 'traceId'
  | 'spanId'
  | 'parentSpanId'
  | 'name'
  | 'serviceName'
  | 'isRunRoot'
  | 'stepKind'
  | 'stepName'
  | 'attempt'
  | 'toolName'
  | 'toolArgsHash'
  | 'stateHash'
  | 'outputHash'
  | 'sideEffect'
  | 'model'
  | 'inputTokens'
  | 'outputTokens'
  | 'cachedInputTokens'
  | 'costUsd'
  | 'statusCode'
  | 'errorType'
  | 'runOutcome'
> & {
  startNs: bigint;
  endNs: bigint;
  sessionId: string;
  /** The span key (spanOrder `keyOfSpan`), computed the first time a finalisation needs it. */
  spanKey: bigint | undefined;
};

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
    spanKey: undefined,
  };
}

const SESSION_RANK = new Map(SESSION_ID_SOURCES.map((key, i) => [key, i]));

/** The first non-empty session source by precedence (a map keeps a key's first value). */
function sessionIdOf(attributes: SpanRecord['attributes']): string {
  let best = '';
  let bestRank = SESSION_ID_SOURCES.length;
  let seen = 0; // a bit per source (a handful)
  for (const kv of attributes) {
    const rank = SESSION_RANK.get(kv.key);
    if (rank === undefined || rank >= bestRank || (seen & (1 << rank)) !== 0) continue;
    seen |= 1 << rank;
    const text = attributeText(kv.value);
    if (text === '') continue;
    best = text;
    bestRank = rank;
  }
  return best;
}
