import type { Attributes } from '@opentelemetry/api';
import { TelltaleAttr } from '@telltale/semconv';
import type { StepKind } from '@telltale/semconv';
import { stableHash } from '../stableHash.js';
import type { StepOptions } from '../types.js';
import { guard } from './reportFault.js';

/**
 * The attributes of a step span: the user's extra attributes, then the kind
 * and name, side-effect flag and state hash (ours win on a clash), then
 * `specific` (tool / llm attributes).
 */
export function stepAttributes(
  kind: StepKind,
  name: string,
  opts: Omit<StepOptions, 'retry' | 'attempt'> | undefined,
  specific?: Attributes,
): Attributes {
  // One object, filled in place: spreading twice cost a sixth of a step's time.
  const attributes: Attributes = opts?.attributes !== undefined ? Object.assign({}, opts.attributes) : {};
  attributes[TelltaleAttr.stepKind] = kind;
  attributes[TelltaleAttr.stepName] = name;
  if (opts?.sideEffect !== undefined) attributes[TelltaleAttr.stepSideEffect] = opts.sideEffect;
  if (opts?.state !== undefined) {
    const hash = guard('hash', () => stableHash(opts.state));
    if (hash !== undefined) attributes[TelltaleAttr.stateHash] = hash;
  }
  return specific !== undefined ? Object.assign(attributes, specific) : attributes;
}

/** Attempt attributes: the attempt number always; the budget only when retrying. */
export function attemptAttributes(attempt: number, maxAttempts: number | undefined): Attributes {
  const attributes: Attributes = { [TelltaleAttr.stepAttempt]: attempt };
  if (maxAttempts !== undefined) attributes[TelltaleAttr.stepMaxAttempts] = maxAttempts;
  return attributes;
}
