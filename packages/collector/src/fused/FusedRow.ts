import type { SpanRecord } from '@telltale/store/encode';
import type { LoopSpan } from '../loops/loopSignals.js';

/**
 * What the fused decoder keeps of an accepted span once its row is written:
 * what run assignment, nested usage, the late columns, content rows and
 * loop signals read. Rows are reused request after request.
 */
export type FusedRow = LoopSpan &
  Pick<SpanRecord, 'traceId' | 'parentSpanId' | 'inputTokens' | 'outputTokens' | 'cachedInputTokens' | 'costUsd'>;

export function emptyFusedRow(): FusedRow {
  return {
    traceId: '',
    spanId: '',
    parentSpanId: '',
    runId: '',
    stepKind: '',
    inputTokens: 0,
    outputTokens: 0,
    cachedInputTokens: 0,
    costUsd: null,
    serviceName: '',
    startTimeUnixNano: 0n,
    statusCode: 0,
    toolName: '',
    stepName: '',
    toolArgsHash: '',
    stateHash: '',
    outputHash: '',
  };
}
