import type { Attributes } from '@opentelemetry/api';
import { TelltaleAttr } from '@telltale/semconv';
import type { StepKind } from '@telltale/semconv';
import { stableHash } from '../stableHash.js';
import type { StepOptions } from '../types.js';
import { guard } from './reportFault.js';

/**
 * The attributes of a step span: the user's extra attributes, then the kind
 * and name, side-effect flag and state hash (ours win on a clash). The caller
 * adds its kind's own attributes (tool / llm) and the attempt to this object:
 * it is the call's own, filled in place (copies cost a sixth of a step's time).
 */
export function stepAttributes(
  kind: StepKind,
  name: string,
  opts: Omit<StepOptions, 'retry' | 'attempt'> | undefined,
): Attributes {
  const attributes: Attributes = opts?.attributes !== undefined ? Object.assign({}, opts.attributes) : {};
  attributes[TelltaleAttr.stepKind] = kind;
  attributes[TelltaleAttr.stepName] = name;
  if (opts?.sideEffect !== undefined) attributes[TelltaleAttr.stepSideEffect] = opts.sideEffect;
  if (opts?.state !== undefined) {
    const hash = guard('hash', () => stableHash(opts.state));
    if (hash !== undefined) attributes[TelltaleAttr.stateHash] = hash;
  }
  return attributes;
}
