/** One session / conversation: the runs that share a `session_id` (migration 0007). */
export interface SessionSummary {
  sessionId: string;
  runs: number;
  successRuns: number;
  failureRuns: number;
  incompleteRuns: number;
  /** Decimal nanoseconds since the epoch: the first run's start and the last run's end. */
  firstStartUnixNano: string;
  lastEndUnixNano: string;
  /** Summed over the runs, each without double counting (as RunSummary#costUsd). */
  costUsd: number;
  inputTokens: number;
  outputTokens: number;
  /** Distinct services and agents (run root names) the session's runs came from. */
  services: string[];
  agents: string[];
}

export interface SessionFilter {
  projectId: string;
  /** Inclusive lower bound on run start, nanoseconds since the epoch. */
  fromUnixNano?: bigint;
  /** Exclusive upper bound on run start. */
  toUnixNano?: bigint;
  service?: string;
}
