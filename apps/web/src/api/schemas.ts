import { z } from 'zod';
import { parseNanoseconds, parseUnixNanos, usd } from '../units';

/**
 * The `/api/v1` wire contract, parsed at the boundary: decimal nanosecond strings
 * become `UnixNanos` (bigint) timestamps and `Nanoseconds` durations, dollars
 * become `Usd`. Unknown extra fields are ignored so the server can grow.
 */

const decimalNanos = z.string().regex(/^\d+$/, 'expected a decimal nanosecond string');
const unixNanosSchema = decimalNanos.transform(parseUnixNanos);
const durationSchema = decimalNanos.transform(parseNanoseconds);
const usdSchema = z.number().transform(usd);
const count = z.number().int().nonnegative();

export const RUN_OUTCOMES = ['success', 'failure', 'incomplete'] as const;
export const runOutcomeSchema = z.enum(RUN_OUTCOMES);
export type RunOutcome = z.infer<typeof runOutcomeSchema>;

export const STEP_KINDS = ['run', 'plan', 'act', 'validate', 'tool', 'llm', 'retrieval', 'handoff', 'guardrail', 'custom'] as const;
/** `''` is a span that carries no step kind (plain OpenTelemetry instrumentation). */
export const stepKindSchema = z.enum(['', ...STEP_KINDS]);
export type StepKind = z.infer<typeof stepKindSchema>;

export const runSummarySchema = z.object({
  runId: z.string(),
  traceId: z.string(),
  name: z.string(),
  service: z.string(),
  outcome: runOutcomeSchema,
  startTimeUnixNano: unixNanosSchema,
  durationNs: durationSchema,
  steps: count,
  spans: count,
  costUsd: usdSchema,
  inputTokens: count,
  outputTokens: count,
  errorType: z.string(),
  /** The session / conversation the run belongs to; `''` for none (and from servers that predate sessions). */
  sessionId: z.string().default(''),
});
export type RunSummary = z.infer<typeof runSummarySchema>;

export const runsPageSchema = z.object({
  runs: z.array(runSummarySchema),
  total: count,
  limit: count,
  offset: count,
});
export type RunsPage = z.infer<typeof runsPageSchema>;

const attributesSchema = z.record(z.string(), z.unknown());
export type Attributes = z.infer<typeof attributesSchema>;

export const spanEventSchema = z.object({
  timeUnixNano: unixNanosSchema,
  name: z.string(),
  attributes: attributesSchema,
});
export type SpanEvent = z.infer<typeof spanEventSchema>;

export const spanStatusCodeSchema = z.enum(['unset', 'ok', 'error']);
export type SpanStatusCode = z.infer<typeof spanStatusCodeSchema>;

export const spanSchema = z.object({
  traceId: z.string(),
  spanId: z.string(),
  /** `''` for a root span. */
  parentSpanId: z.string(),
  name: z.string(),
  /** OTLP `SpanKind` (0 unspecified … 5 consumer). */
  kind: z.number().int(),
  stepKind: stepKindSchema,
  stepName: z.string(),
  /** 1-based attempt of the step; 0 when unknown. */
  attempt: count,
  toolName: z.string(),
  model: z.string(),
  startTimeUnixNano: unixNanosSchema,
  endTimeUnixNano: unixNanosSchema,
  durationNs: durationSchema,
  status: z.object({ code: spanStatusCodeSchema, message: z.string() }),
  errorType: z.string(),
  sideEffect: z.boolean(),
  inputTokens: count,
  outputTokens: count,
  /** `null` when the cost is unknown (no price for the model). */
  costUsd: usdSchema.nullable(),
  attributes: attributesSchema,
  resourceAttributes: attributesSchema,
  events: z.array(spanEventSchema),
});
export type Span = z.infer<typeof spanSchema>;

export const runDetailSchema = z.object({
  run: runSummarySchema,
  spans: z.array(spanSchema),
});
export type RunDetail = z.infer<typeof runDetailSchema>;

/** Every non-2xx response carries this body. */
export const apiErrorBodySchema = z.object({
  error: z.object({ code: z.string(), message: z.string() }),
});
