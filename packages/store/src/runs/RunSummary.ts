/** Run outcomes as stored queries report them (see RELIABILITY-MATH.md, "Run outcome"). */
export type RunOutcomeValue = 'success' | 'failure' | 'incomplete';

export interface RunSummary {
  runId: string;
  traceId: string;
  name: string;
  service: string;
  outcome: RunOutcomeValue;
  /** Decimal nanoseconds since the epoch (strings: a double would lose nanoseconds). */
  startTimeUnixNano: string;
  durationNs: string;
  steps: number;
  spans: number;
  costUsd: number;
  inputTokens: number;
  outputTokens: number;
  errorType: string;
}

export interface RunFilter {
  projectId: string;
  /** Inclusive lower bound on span start, nanoseconds since the epoch. */
  fromUnixNano?: bigint;
  /** Exclusive upper bound on span start. */
  toUnixNano?: bigint;
  outcome?: RunOutcomeValue;
  service?: string;
  runId?: string;
}

export interface Page {
  limit: number;
  offset: number;
}
