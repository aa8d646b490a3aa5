import type { SpanRecord } from '@telltale/store/encode';

/**
 * What the fused decoder keeps of an accepted span once its row is written:
 * what run assignment, nested usage, the late columns, content rows and
 * loop signals read. Rows are reused request after request.
 */
export type FusedRow = Pick<
  SpanRecord,
  | 'traceId'
  | 'spanId'
  | 'parentSpanId'
  | 'runId'
  | 'stepKind'
  | 'inputTokens'
  | 'outputTokens'
  | 'cachedInputTokens'
  | 'costUsd'
  | 'serviceName'
  | 'startTimeUnixNano'
  | 'statusCode'
  | 'toolName'
  | 'stepName'
  | 'toolArgsHash'
  | 'stateHash'
  | 'outputHash'
>;

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
