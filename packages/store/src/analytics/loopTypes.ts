import type { RunOutcomeValue } from '../runs/RunSummary.js';

/** Loop kinds of RELIABILITY-MATH "Loops and no progress". */
export const LOOP_KINDS = ['repeated_action', 'no_progress', 'ping_pong', 'runaway'] as const;
export type LoopKind = (typeof LOOP_KINDS)[number];

/**
 * Which rule fired: `tool_args` (repeated action), `state_hash` and
 * `failed_validation` (the two no-progress rules), `alternation` (ping-pong),
 * `step_count` (runaway).
 */
export const LOOP_VARIANTS = ['tool_args', 'state_hash', 'failed_validation', 'alternation', 'step_count'] as const;
export type LoopVariant = (typeof LOOP_VARIANTS)[number];

/** The kind each variant reports under. */
export const LOOP_KIND_OF_VARIANT: Readonly<Record<LoopVariant, LoopKind>> = {
  tool_args: 'repeated_action',
  state_hash: 'no_progress',
  failed_validation: 'no_progress',
  alternation: 'ping_pong',
  step_count: 'runaway',
};

/** Detection thresholds (queries always receive all four; defaults: DEFAULT_LOOP_THRESHOLDS). */
export interface LoopThresholds {
  /** Same (tool, args hash), same state hash, or consecutive failed validations with one output hash: this many times. */
  repeat: number;
  /** A→B→A→B… alternations of at least this many cycles. */
  pingPongCycles: number;
  /** Runaway: more steps than max(runawayMultiplier × the agent's median steps per run, runawayHardCap). */
  runawayMultiplier: number;
  runawayHardCap: number;
}

/**
 * The one place the loop thresholds' defaults live (RELIABILITY-MATH "Loops
 * and no progress"). The run facts are detected with these, so queries with
 * other `repeat` or `pingPongCycles` values read the spans instead.
 */
export const DEFAULT_LOOP_THRESHOLDS: Readonly<LoopThresholds> = Object.freeze({
  repeat: 3,
  pingPongCycles: 3,
  runawayMultiplier: 3,
  runawayHardCap: 50,
});

/** The median steps per completed run of one agent (for runaway limits of queries restricted to some runs). */
export interface AgentStepMedian {
  service: string;
  agent: string;
  medianSteps: number;
}

/** One detection as the SQL finds it (evidence span ids come from the run's steps, see LoopStepRow). */
export interface LoopDetectionRow {
  runId: string;
  agent: string;
  service: string;
  runOutcome: RunOutcomeValue;
  /** Decimal ns since the epoch. */
  runStartUnixNano: string;
  variant: LoopVariant;
  /** Repeats (repeated action, no progress), cycles (ping-pong) or steps in the run (runaway). */
  count: number;
  /** Start of the detection's first span (ping-pong: of the alternation's first call; runaway: of the first step beyond the limit). */
  anchorStartNs: string;
  /** That span's id. */
  anchorSpanId: string;
  wastedNs: number;
  wastedCostUsd: number;
  /** The agent's median steps per completed run (null: no completed runs, or the run is incomplete). */
  agentMedianSteps: number | null;
  /** max(multiplier × median, hard cap): the run's runaway limit. */
  stepLimit: number;
}

/** Flagged runs and waste for one loop kind, or for all kinds together (each wasted span counted once). */
export interface LoopTotals {
  runsFlagged: number;
  detections: number;
  wastedNs: number;
  wastedCostUsd: number;
}

export interface LoopPage {
  detections: LoopDetectionRow[];
  /** Detections matching the kind filter (for paging). */
  total: number;
  /** Runs looked at (all kept runs of the filter). */
  runs: number;
  byKind: Record<LoopKind, LoopTotals>;
  overall: LoopTotals;
}

/** Runs and looping runs per interval of run start; intervals without runs are absent. */
export interface LoopRateBucket {
  /** Bucket start, ms since the epoch (buckets align to the epoch). */
  bucketStartMs: number;
  runs: number;
  loopingRuns: number;
}

/** Loop flags of one run that has at least one detection. */
export interface RunLoopFlag {
  runId: string;
  kinds: LoopKind[];
  detections: number;
  /** Time and cost of the run's wasted spans, each counted once across detections. */
  wastedNs: number;
  wastedCostUsd: number;
}

/** One step span of a run, in the shape the TS loop detector takes. */
export interface LoopStepRow {
  runId: string;
  spanId: string;
  /** Decimal ns since the epoch. */
  startNs: string;
  kind: string;
  /** Tool name for tool steps (else the step name). */
  name: string;
  argsHash: string;
  stateHash: string;
  outputHash: string;
  ok: boolean;
  durationNs: number;
  costUsd: number;
}
