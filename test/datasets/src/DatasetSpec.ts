import type { PriceTable } from '@telltale/store';

/** Step kinds a generated step can have (`run` is the root's). */
export type GeneratedStepKind =
  'plan' | 'act' | 'validate' | 'tool' | 'llm' | 'retrieval' | 'handoff' | 'guardrail' | 'custom';

/** Per-attempt latency: lognormal, optionally with a heavy tail (a tail draw multiplies the sample). */
export interface LatencySpec {
  medianMs: number;
  /** Standard deviation of ln(duration). */
  sigma: number;
  tail?: { probability: number; multiplierMin: number; multiplierMax: number };
}

export interface LlmSpec {
  model: string;
  provider: string;
  inputTokens: readonly [min: number, max: number];
  outputTokens: readonly [min: number, max: number];
  /** Upper bound of the cached share of input tokens (drawn uniformly in [0, cachedShare]). */
  cachedShare: number;
}

/**
 * One step. Each time it runs it forms one attempt group: the first attempt
 * succeeds with `firstAttemptSuccess`, each retry with `retrySuccess`, up to
 * `maxAttempts`. Children run inside every attempt; a child group that never
 * succeeds fails the attempt (with the child's error type).
 */
export interface StepSpec {
  type: 'step';
  /** Step name (for tools, also the tool name). */
  name: string;
  kind: GeneratedStepKind;
  /** Span name; defaults by kind (`chat <model>`, `execute_tool <tool>`, else the step name). */
  spanName?: string;
  firstAttemptSuccess: number;
  retrySuccess: number;
  maxAttempts: number;
  /** Error types of failed attempts, drawn uniformly. */
  errorTypes: readonly string[];
  latency: LatencySpec;
  /** Probability the step runs at all (branching: the run skips it otherwise). Default 1. */
  include?: number;
  children?: readonly StepNode[];
  /** Children start together (their intervals overlap) instead of one after another. */
  parallelChildren?: boolean;
  /** Tool steps in a repeat: the tool (and step) name rotates through these per iteration. */
  rotate?: readonly string[];
  /** Explicit cost of each tool call (a paid API), set as `costUsd`. */
  toolCostUsd?: number;
  llm?: LlmSpec;
  sideEffect?: boolean;
  /**
   * The span also carries the summed usage (tokens, and cost when every
   * child's is explicit) of its descendants — the double-counting trap. Only
   * allowed on kinds whose usage never counts (`handoff`).
   */
  aggregatesChildUsage?: boolean;
}

/** Exactly one path runs; an empty path skips. */
export interface BranchSpec {
  type: 'branch';
  paths: ReadonlyArray<{ weight: number; steps: readonly StepNode[] }>;
}

/** The body runs a uniform number of times in [min, max]. */
export interface RepeatSpec {
  type: 'repeat';
  min: number;
  max: number;
  body: readonly StepNode[];
}

export type StepNode = StepSpec | BranchSpec | RepeatSpec;

/** Loop injection (agents with a repeat whose body holds a plan step and a rotating tool step). */
export interface LoopInjectionSpec {
  /** Probability of each injected loop per run (the rest of the runs are clean). */
  rates: {
    repeatedAction: number;
    pingPong: number;
    noProgressState: number;
    noProgressValidation: number;
    runaway: number;
  };
  /** Probability a looping run's root ends in ERROR (failed-validation loops always fail). */
  failureRate: number;
  /** The validate step whose attempts fail with one output hash in the failed-validation loop. */
  validateStep: string;
}

export interface AgentSpec {
  /** The run root's span name. Unique across the dataset. */
  name: string;
  service: string;
  projectId: string;
  /** Share of the dataset's runs (relative). */
  weight: number;
  /** Set `telltale.step.attempt` (1-based); false → attempt 0, retries are consecutive same-name siblings. */
  attemptNumbers: boolean;
  steps: readonly StepNode[];
  /** Every group eventually succeeded, but the root ends in ERROR (or declares failure). */
  seamFailureRate: number;
  /** Error types of seam failures; '' means the root is UNSET with `telltale.run.outcome=failure`. */
  seamErrorTypes: readonly string[];
  /** When a group never succeeds: probability the agent falls back and the run ends successfully there. */
  fallbackRate: number;
  /** Probability the root span never arrives (all other spans do). */
  incompleteRate: number;
  /** Share of runs whose spans carry `customer.tier=pro` (else `free`). */
  proShare: number;
  /** Probability an llm group is wrapped in a step-less `ai.generateText` span carrying the group's summed usage. */
  usageWrapperRate?: number;
  /** Probability the root carries the run's summed token usage (an `invoke_agent`-style root). */
  rootUsageRate?: number;
  loops?: LoopInjectionSpec;
  /** The step name the agent's latency tail is built around (recorded in the truth), if any. */
  tailDriver?: string;
}

/** Loop-detector thresholds (RELIABILITY-MATH "Loops and no progress"). */
export interface LoopThresholds {
  /** Same (tool, args hash), same state hash, or same failed-validation output hash: this many times. */
  repeatThreshold: number;
  pingPongCycles: number;
  runawayMultiplier: number;
  runawayHardCap: number;
}

export interface CostSpec {
  /** USD per token by model; spans without an explicit cost are priced from it. */
  prices: PriceTable;
  /** Share of llm spans whose `costUsd` is set explicitly (the rest are null: the server prices tokens). */
  explicitShare: number;
  /** An explicit cost is the table price times this (so a server that ignores it reports a different number). */
  explicitMarkup: number;
}

export interface DatasetSpec {
  seed: number;
  runs: number;
  /** Every span starts and ends in [startNs, endNs). */
  startNs: bigint;
  endNs: bigint;
  agents: readonly AgentSpec[];
  thresholds: LoopThresholds;
  cost: CostSpec;
}

export const DEFAULT_THRESHOLDS: LoopThresholds = {
  repeatThreshold: 3,
  pingPongCycles: 3,
  runawayMultiplier: 3,
  runawayHardCap: 50,
};
