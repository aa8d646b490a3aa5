import type { RunOutcome } from '@telltale/api-contract';

/**
 * The error a run shows: its root's error type, else the first a step
 * failed with. A run that succeeded anyway recovered from it, and says so
 * (it is not shown as the run's failure).
 */
export interface RunError {
  /** '' when the run met no error. */
  errorType: string;
  recovered: boolean;
  /** What the error is to this run, for a label or a tooltip. */
  errorLabel: string;
}

export function prepareRunError(outcome: RunOutcome, errorType: string): RunError {
  if (errorType === '') return { errorType, recovered: false, errorLabel: '' };
  const recovered = outcome === 'success';
  return {
    errorType,
    recovered,
    errorLabel: recovered ? 'Recovered from' : outcome === 'failure' ? 'Failed with' : 'Error so far',
  };
}
