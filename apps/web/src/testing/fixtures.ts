import type { RunSummary, Span } from '@telltale/api-contract';
import { runSummarySchema, spanSchema } from '@telltale/api-contract';

/**
 * Wire-format builders for tests: JSON exactly as `/api/v1` sends it, so tests
 * go through the real zod boundary. Times default to a fixed epoch.
 */
export const T0 = 1_700_000_000_000_000_000n;

export type RunSummaryJson = Record<string, unknown>;
export type SpanJson = Record<string, unknown>;

export function runSummaryJson(overrides: RunSummaryJson = {}): RunSummaryJson {
  return {
    runId: 'run-1',
    traceId: '0af7651916cd43dd8448eb211c80319c',
    name: 'support-agent',
    service: 'support',
    outcome: 'success',
    startTimeUnixNano: T0.toString(),
    durationNs: '1500000000',
    steps: 4,
    spans: 6,
    costUsd: 0.0123,
    inputTokens: 1200,
    outputTokens: 300,
    errorType: '',
    ...overrides,
  };
}

/** A span starting `startMs` after T0 and lasting `durationMs` (fractions allowed). */
export function spanJson(
  spanId: string,
  parentSpanId: string,
  startMs: number,
  durationMs: number,
  overrides: SpanJson = {},
): SpanJson {
  const start = T0 + BigInt(Math.round(startMs * 1e6));
  const duration = BigInt(Math.round(durationMs * 1e6));
  return {
    traceId: '0af7651916cd43dd8448eb211c80319c',
    spanId,
    parentSpanId,
    name: spanId,
    kind: 1,
    stepKind: '',
    stepName: '',
    attempt: 0,
    toolName: '',
    model: '',
    startTimeUnixNano: start.toString(),
    endTimeUnixNano: (start + duration).toString(),
    durationNs: duration.toString(),
    status: { code: 'unset', message: '' },
    errorType: '',
    sideEffect: false,
    inputTokens: 0,
    outputTokens: 0,
    costUsd: null,
    attributes: {},
    resourceAttributes: {},
    events: [],
    ...overrides,
  };
}

export function runSummary(overrides: RunSummaryJson = {}): RunSummary {
  return runSummarySchema.parse(runSummaryJson(overrides));
}

export function span(
  spanId: string,
  parentSpanId: string,
  startMs: number,
  durationMs: number,
  overrides: SpanJson = {},
): Span {
  return spanSchema.parse(spanJson(spanId, parentSpanId, startMs, durationMs, overrides));
}
