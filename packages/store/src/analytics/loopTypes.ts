import type { LoopKind, LoopVariant } from '@telltale/semconv';
import type { RunOutcomeValue } from '../runs/RunSummary.js';

/**
 * Loop kinds, variants and thresholds are defined once, in @telltale/semconv
 * (loopKinds.ts); re-exported here for the store's callers.
 */
export { LOOP_KINDS, LOOP_VARIANTS, LOOP_KIND_OF_VARIANT, DEFAULT_LOOP_THRESHOLDS } from '@telltale/semconv';
export type { LoopKind, LoopVariant, LoopThresholds } from '@telltale/semconv';

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
