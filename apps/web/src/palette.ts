import type { RunOutcome, StepKind } from '@telltale/api-contract';

/**
 * The one place colours and labels for step kinds and outcomes are defined;
 * prepare functions read them, components only render what they are given.
 */
export interface Swatch {
  label: string;
  color: string;
}

export const STEP_KIND_SWATCHES: Readonly<Record<StepKind, Swatch>> = {
  run: { label: 'run', color: '#475569' },
  plan: { label: 'plan', color: '#8b5cf6' },
  act: { label: 'act', color: '#2563eb' },
  validate: { label: 'validate', color: '#0d9488' },
  tool: { label: 'tool', color: '#d97706' },
  llm: { label: 'llm', color: '#c026d3' },
  retrieval: { label: 'retrieval', color: '#65a30d' },
  handoff: { label: 'handoff', color: '#0891b2' },
  guardrail: { label: 'guardrail', color: '#4f46e5' },
  custom: { label: 'custom', color: '#78716c' },
  '': { label: 'span', color: '#94a3b8' },
};

export const OUTCOME_SWATCHES: Readonly<Record<RunOutcome, Swatch>> = {
  success: { label: 'Success', color: '#16a34a' },
  failure: { label: 'Failure', color: '#dc2626' },
  incomplete: { label: 'Incomplete', color: '#d97706' },
};

export const ERROR_COLOR = '#dc2626';
