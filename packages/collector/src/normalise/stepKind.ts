import {
  AGENT_OPERATIONS,
  GEN_AI_OPERATION_STEP_KIND,
  OPENINFERENCE_STEP_KIND,
  OpenInferenceAttr,
  OtelAttr,
  StepKind,
  TelltaleAttr,
  VERCEL_AI_SPAN_STEP_KIND,
  VERCEL_AI_SPAN_SUFFIX_STEP_KIND,
  isStepKind,
} from '@telltale/semconv';
import type { AttributeMap } from './attributeLookup.js';

/**
 * The step kind of a span (RELIABILITY-MATH.md, "Step"), or '' when the span
 * is not a step. An agent invocation at the trace root is the run itself;
 * below it, a handoff.
 */
export function resolveStepKind(attrs: AttributeMap, spanName: string, isTraceRoot: boolean): StepKind | '' {
  const own = attrs.get(TelltaleAttr.stepKind);
  if (isStepKind(own)) return own;

  const operation = attrs.get(OtelAttr.genAiOperationName);
  if (typeof operation === 'string') {
    if (AGENT_OPERATIONS.has(operation)) return isTraceRoot ? StepKind.run : StepKind.handoff;
    const kind = GEN_AI_OPERATION_STEP_KIND[operation];
    if (kind !== undefined) return kind;
  }

  const oiKind = attrs.get(OpenInferenceAttr.spanKind);
  if (typeof oiKind === 'string') {
    const upper = oiKind.toUpperCase();
    if (AGENT_OPERATIONS.has(upper)) return isTraceRoot ? StepKind.run : StepKind.handoff;
    const kind = OPENINFERENCE_STEP_KIND[upper];
    if (kind !== undefined) return kind;
  }

  const vercel = VERCEL_AI_SPAN_STEP_KIND[spanName];
  if (vercel !== undefined) return vercel;
  for (const [suffix, kind] of VERCEL_AI_SPAN_SUFFIX_STEP_KIND) if (spanName.endsWith(suffix)) return kind;
  return '';
}
