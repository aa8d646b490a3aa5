import type { AttributeValue, Attributes, Span } from '@opentelemetry/api';
import type { StepKind } from '@telltale/semconv';
import type { CaptureMode } from './internal/contentCapture.js';

/** Token usage and cost of one or more model calls made inside a step. */
export interface LlmUsage {
  inputTokens: number;
  outputTokens: number;
  /** Input tokens served from the provider's prompt cache. */
  cachedInputTokens?: number;
  /** Cost in USD when the caller knows it (otherwise the server prices the tokens). */
  costUsd?: number;
}

/** What every step function receives. All methods are safe (they never throw) and may be destructured. */
export interface StepHandle {
  /** The OpenTelemetry span of this step (a non-recording span if tracing failed). */
  readonly span: Span;
  /** The id of the enclosing run, when the step runs inside `run()`. */
  readonly runId: string | undefined;
  /** 1-based attempt number of this span (1 unless retried). */
  readonly attempt: number;
  setAttribute(this: void, key: string, value: AttributeValue): void;
  setAttributes(this: void, attributes: Attributes): void;
  /** Sets `telltale.output.hash` = stableHash(value). */
  setOutputHash(this: void, value: unknown): void;
  /** Sets `telltale.state.hash` = stableHash(value). */
  setStateHash(this: void, value: unknown): void;
  /**
   * Records model usage. Calls accumulate, so a step that makes several model
   * calls can record each one.
   */
  recordUsage(this: void, usage: LlmUsage): void;
  /**
   * Records what the step was given, when content capture is on (see
   * `capture`): a model call's messages (`[{role, content}]`, or a string
   * for one user message) as `gen_ai.input.messages`; a tool call's
   * arguments; any other step's input as `telltale.content.input`.
   * Redacted before it leaves the process; a no-op under `capture: 'none'`.
   */
  recordInput(this: void, value: unknown): void;
  /** Records what the step produced (the model's answer messages, a tool's result…), like `recordInput`. */
  recordOutput(this: void, value: unknown): void;
  /** Sets `gen_ai.response.model` (the model that actually answered). */
  setResponseModel(this: void, model: string): void;
}

/** Outcomes an agent can declare; `incomplete` is derived by the server. */
export type DeclaredRunOutcome = 'success' | 'failure';

/** What the `run()` function receives. */
export interface RunHandle extends StepHandle {
  readonly runId: string;
  /**
   * Declares the run's outcome without throwing: `failure` marks the run span
   * ERROR (with `message` as the status message). A thrown error always wins.
   */
  setOutcome(this: void, outcome: DeclaredRunOutcome, message?: string): void;
}

/** Backoff between attempts: a policy, or a function of the attempt that just failed (1-based) returning ms. */
export type Backoff = BackoffPolicy | ((failedAttempt: number) => number);

export interface BackoffPolicy {
  /** Delay after the first failed attempt (≥ 0). */
  initialMs: number;
  /** Multiplier per further attempt (> 0, default 2). */
  factor?: number;
  /** Upper bound of one delay (≥ 0, default: none). */
  maxMs?: number;
  /**
   * Randomised share of each delay: `true` = full jitter (0…delay), a number
   * in 0…1 = that fraction of the delay is random. Default: none.
   */
  jitter?: boolean | number;
}

export interface RetryPolicy {
  /** Maximum number of attempts, including the first: an integer ≥ 1. */
  attempts: number;
  backoff?: Backoff;
  /** Return false to stop retrying on this error (it is rethrown at once). Default: retry every error. */
  retryIf?: (error: unknown) => boolean;
}

export interface StepOptions {
  /** `telltale.step.side_effect`: the step changes the world. */
  sideEffect?: boolean;
  /** Agent state the step saw; hashed into `telltale.state.hash`, and with content capture on, the step's input. */
  state?: unknown;
  /** Attempt number when the agent retries by itself (an integer ≥ 1, default 1). Ignored with `retry`. */
  attempt?: number;
  /** Extra span attributes. The SDK's own attributes win on a clash. */
  attributes?: Attributes;
  /** Retry the step: each attempt becomes its own span (see `retry`). */
  retry?: RetryPolicy;
  /**
   * What to record of this step's inputs and outputs (default: the
   * `capture` given to `createTelltale` / `init`, else `none`).
   */
  capture?: CaptureMode;
}

/**
 * Limits that stop a run in-process with a RunGuardError (checked before each
 * step starts; the step crossing a limit is recorded as failed, not run, with
 * `error.type` `run_guard.<reason>`).
 */
export interface RunGuard {
  /** Stop at the Nth call of the same tool with the same arguments (a repeated action); an integer ≥ 2. */
  maxRepeats?: number;
  /** Stop at the step after this many steps; an integer ≥ 1. */
  maxSteps?: number;
  /** Stop at the next step once the cost recorded with `recordUsage({ costUsd })` exceeds this (≥ 0). */
  maxCostUsd?: number;
  /** Stop at the next step once the run has taken longer than this many ms (≥ 0). */
  maxDurationMs?: number;
}

export interface RunOptions {
  /** Use this run id instead of a fresh UUID (e.g. to resume a run). */
  runId?: string;
  attributes?: Attributes;
  /** Stop the run when it loops, runs away or exceeds its budget (see RunGuard). */
  guard?: RunGuard;
  /** `gen_ai.agent.id`: a stable id of the agent (its name is the run's name). */
  agentId?: string;
  /** `gen_ai.conversation.id`: the session / conversation the run belongs to (runs of a session are grouped). */
  sessionId?: string;
}

/** The model an `llm` step calls (a plain string is the model name). */
export interface LlmModel {
  /** `gen_ai.request.model`, e.g. `gpt-4o-mini`. */
  model: string;
  /** `gen_ai.provider.name`, e.g. `openai`, `anthropic`. */
  provider?: string;
  /** `gen_ai.operation.name` (default `chat`). */
  operation?: string;
}

/** Step kinds a step (not a run) can have. */
export type StepKindName = Exclude<StepKind, 'run'>;

export interface RetryOptions extends RetryPolicy, Omit<StepOptions, 'retry' | 'attempt'> {
  /** Step kind of each attempt (default `act`). */
  kind?: StepKindName;
}

/** A step function: sync or async. */
export type StepFn<T> = (step: StepHandle) => T | PromiseLike<T>;
