/** Run outcomes as stored queries report them (see RELIABILITY-MATH.md, "Run outcome"). */
export type RunOutcomeValue = 'success' | 'failure' | 'incomplete';

export interface RunSummary {
  runId: string;
  traceId: string;
  /** The root span's name (the agent); for an incomplete run, its earliest span's. */
  name: string;
  service: string;
  outcome: RunOutcomeValue;
  /** Decimal nanoseconds since the epoch (strings: a double would lose nanoseconds). */
  startTimeUnixNano: string;
  /** The root's duration; with no root, first span start to last span end. */
  durationNs: string;
  steps: number;
  spans: number;
  /** Attempt groups (RELIABILITY-MATH "Attempt") among the run's steps. */
  attemptGroups: number;
  /** Explicit costs, else tokens × the project's price table; aggregate spans not double counted. */
  costUsd: number;
  inputTokens: number;
  outputTokens: number;
  /** Of the input tokens, those read from a prompt cache. */
  cachedInputTokens: number;
  /** Spans with usage that no price covers (their cost counts as 0). */
  unpricedSpans: number;
  errorType: string;
  /** The session / conversation the run belongs to ('' for none): its earliest span's `gen_ai.conversation.id`, `session.id`… (migration 0007). */
  sessionId: string;
}

export interface RunFilter {
  projectId: string;
  /** Inclusive lower bound on span start, nanoseconds since the epoch. */
  fromUnixNano?: bigint;
  /** Exclusive upper bound on span start. */
  toUnixNano?: bigint;
  outcome?: RunOutcomeValue;
  /** Runs in which any span came from this service (the root's, or a downstream service's). */
  service?: string;
  /** The run root's name. */
  agent?: string;
  /** Runs of this session / conversation. */
  session?: string;
  /** Runs containing a span with this step name / tool / model / these attributes. */
  stepName?: string;
  tool?: string;
  model?: string;
  attributes?: Readonly<Record<string, string>>;
  runId?: string;
  /** Choose the page from the spans instead of the run facts (verification; see AnalyticsFilter#recompute). */
  recompute?: boolean;
}

export interface Page {
  limit: number;
  offset: number;
}
