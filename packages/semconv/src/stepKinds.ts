/** The step kinds of the canonical step model (RELIABILITY-MATH.md, "Entities"). */
export const StepKind = {
  run: 'run',
  plan: 'plan',
  act: 'act',
  validate: 'validate',
  tool: 'tool',
  llm: 'llm',
  retrieval: 'retrieval',
  handoff: 'handoff',
  guardrail: 'guardrail',
  custom: 'custom',
} as const;
export type StepKind = (typeof StepKind)[keyof typeof StepKind];

export const STEP_KINDS: readonly StepKind[] = Object.values(StepKind);

export function isStepKind(value: unknown): value is StepKind {
  return typeof value === 'string' && (STEP_KINDS as readonly string[]).includes(value);
}

/** Run outcomes. `incomplete` is derived at query time, never sent. */
export const RunOutcome = {
  success: 'success',
  failure: 'failure',
  incomplete: 'incomplete',
} as const;
export type RunOutcome = (typeof RunOutcome)[keyof typeof RunOutcome];

/** Values of `telltale.run.stop_reason`: why an SDK guard stopped a run. */
export const RunStopReason = {
  /** The same tool with the same arguments `maxRepeats` times (a repeated action). */
  loop: 'loop',
  /** More than `maxSteps` steps (a runaway). */
  maxSteps: 'max_steps',
  /** Recorded cost above `maxCostUsd`. */
  budget: 'budget',
  /** Longer than `maxDurationMs`. */
  timeout: 'timeout',
} as const;
export type RunStopReason = (typeof RunStopReason)[keyof typeof RunStopReason];
