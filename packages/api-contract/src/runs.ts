import { MAX_RUN_ID_LENGTH } from '@telltale/semconv';
import { z } from 'zod';
import { TimeParam, fromBeforeTo, pageQuery } from './queryParams.js';
import { Count, DurationString, Money, UnixNanosString } from './wire.js';

/** `/runs`, `/sessions` and `/traces`: queries and answers. */

export const RUN_OUTCOMES = ['success', 'failure', 'incomplete'] as const;
export const runOutcomeSchema = z.enum(RUN_OUTCOMES);
export type RunOutcome = z.infer<typeof runOutcomeSchema>;

export const STEP_KINDS = [
  'run',
  'plan',
  'act',
  'validate',
  'tool',
  'llm',
  'retrieval',
  'handoff',
  'guardrail',
  'custom',
] as const;
/** `''` is a span that carries no step kind (plain OpenTelemetry instrumentation). */
export const stepKindSchema = z.enum(['', ...STEP_KINDS]);
export type StepKind = z.infer<typeof stepKindSchema>;

const NameParam = z.string().min(1).max(512);

export const ListRunsQuery = z
  .object({
    ...pageQuery(1000, 50),
    outcome: runOutcomeSchema.optional(),
    service: NameParam.optional().describe(
      "only runs in which this service took part: the root's service, or a downstream service the run called",
    ),
    agent: NameParam.optional().describe("only runs whose root is this agent (the run root's name)"),
    step: NameParam.optional().describe('only runs containing a step with this step name'),
    tool: NameParam.optional().describe('only runs containing a call of this tool'),
    model: NameParam.optional().describe('only runs containing an LLM call of this model'),
    session: NameParam.optional().describe(
      'only runs of this session / conversation (gen_ai.conversation.id, session.id…)',
    ),
    from: TimeParam.optional(),
    to: TimeParam.optional(),
  })
  .strict()
  .refine(fromBeforeTo, { path: ['from'], message: 'must be before to' });

export const ListSessionsQuery = z
  .object({
    ...pageQuery(1000, 50),
    service: NameParam.optional(),
    from: TimeParam.optional(),
    to: TimeParam.optional(),
  })
  .strict()
  .refine(fromBeforeTo, { path: ['from'], message: 'must be before to' });

export const RunIdParams = z.object({ runId: z.string().min(1).max(MAX_RUN_ID_LENGTH) });
export const TraceIdParams = z.object({
  traceId: z.string().regex(/^[0-9a-fA-F]{32}$/, 'a trace id is 32 hex digits'),
});

export const runSummarySchema = z.object({
  runId: z.string(),
  traceId: z.string(),
  name: z.string(),
  service: z.string(),
  outcome: runOutcomeSchema,
  startTimeUnixNano: UnixNanosString,
  durationNs: DurationString,
  steps: Count,
  spans: Count,
  costUsd: Money,
  inputTokens: Count,
  outputTokens: Count,
  errorType: z.string(),
  /** The session / conversation the run belongs to; `''` for none. */
  sessionId: z.string().default(''),
});
export type RunSummary = z.infer<typeof runSummarySchema>;

export const runsPageSchema = z.object({ runs: z.array(runSummarySchema), total: Count, limit: Count, offset: Count });
export type RunsPage = z.infer<typeof runsPageSchema>;

const attributesSchema = z.record(z.string(), z.unknown());
export type Attributes = z.infer<typeof attributesSchema>;

export const spanEventSchema = z.object({
  timeUnixNano: UnixNanosString,
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
  /** The service that recorded the span (resource `service.name`). */
  serviceName: z.string().default(''),
  /** OTLP `SpanKind` (0 unspecified … 5 consumer). */
  kind: z.number().int(),
  stepKind: stepKindSchema,
  stepName: z.string(),
  /** 1-based attempt of the step; 0 when unknown. */
  attempt: Count,
  toolName: z.string(),
  model: z.string(),
  startTimeUnixNano: UnixNanosString,
  endTimeUnixNano: UnixNanosString,
  durationNs: DurationString,
  status: z.object({ code: spanStatusCodeSchema, message: z.string() }),
  errorType: z.string(),
  sideEffect: z.boolean(),
  inputTokens: Count,
  outputTokens: Count,
  /** `null` when the cost is unknown (no price for the model). */
  costUsd: Money.nullable(),
  attributes: attributesSchema,
  resourceAttributes: attributesSchema,
  events: z.array(spanEventSchema),
});
export type Span = z.infer<typeof spanSchema>;

export const runDetailSchema = z.object({
  run: runSummarySchema,
  /** Every service that recorded spans of the run, sorted: the root's and any downstream service it called. */
  services: z.array(z.string()).default([]),
  spans: z.array(spanSchema),
});
export type RunDetail = z.infer<typeof runDetailSchema>;

export const traceSchema = z.object({ traceId: z.string(), spans: z.array(spanSchema) });
export type Trace = z.infer<typeof traceSchema>;

export const sessionSummarySchema = z.object({
  sessionId: z.string(),
  runs: Count,
  successRuns: Count,
  failureRuns: Count,
  incompleteRuns: Count,
  /** The first run's start and the last run's end. */
  firstStartUnixNano: UnixNanosString,
  lastEndUnixNano: UnixNanosString,
  costUsd: Money,
  inputTokens: Count,
  outputTokens: Count,
  services: z.array(z.string()),
  agents: z.array(z.string()),
});
export type SessionSummary = z.infer<typeof sessionSummarySchema>;

export const sessionsPageSchema = z.object({
  sessions: z.array(sessionSummarySchema),
  total: Count,
  limit: Count,
  offset: Count,
});
export type SessionsPage = z.infer<typeof sessionsPageSchema>;

/** `/health`: 200 with `ok`, 503 with `degraded` when storage is unreachable. */
export const healthSchema = z.object({ status: z.enum(['ok', 'degraded']), storage: z.boolean() });
export type Health = z.infer<typeof healthSchema>;

/** `/openapi.json`: an OpenAPI 3.1 document. */
export const openApiDocumentSchema = z.looseObject({
  openapi: z.literal('3.1.0'),
  info: z.object({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.record(z.string(), z.unknown())),
});
