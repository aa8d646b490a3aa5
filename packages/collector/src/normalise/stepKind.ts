import {
  GEN_AI_OPERATION_STEP_KIND,
  OPENINFERENCE_STEP_KIND,
  StepKind,
  TRACELOOP_STEP_KIND,
  VERCEL_AI_SPAN_STEP_KIND,
  VERCEL_AI_SPAN_SUFFIX_STEP_KIND,
  isStepKind,
  type KindRule,
} from '@telltale/semconv';
import { Field, type SpanFields } from './attributeLookup.js';

/** OpenInference kinds are upper case by spec; some emitters send lower case. Cached, so a kind is upper-cased once. */
const upperCase = new Map<string, string>();
function upper(kind: string): string {
  let u = upperCase.get(kind);
  if (u === undefined) {
    u = kind.toUpperCase();
    if (upperCase.size < 64) upperCase.set(kind, u);
  }
  return u;
}

function fromRule(rule: KindRule | undefined, isTraceRoot: boolean): StepKind | '' | undefined {
  if (rule === undefined) return undefined;
  if (rule === 'agent') return isTraceRoot ? StepKind.run : StepKind.handoff;
  return rule;
}

function lookup(table: Readonly<Record<string, KindRule>>, key: unknown): KindRule | undefined {
  return typeof key === 'string' && Object.hasOwn(table, key) ? table[key] : undefined;
}

/**
 * The step kind of a span (RELIABILITY-MATH.md, "Step"), or '' when the span
 * is not a step: our attribute, else `gen_ai.operation.name`, else
 * `openinference.span.kind`, else `traceloop.span.kind`, else the Vercel AI
 * SDK's span names. An agent invocation at the trace root is the run
 * itself; below it, a handoff.
 */
export function resolveStepKind(fields: SpanFields, spanName: string, isTraceRoot: boolean): StepKind | '' {
  const own = fields.value(Field.stepKindOwn);
  if (isStepKind(own)) return own;

  const byOperation = fromRule(lookup(GEN_AI_OPERATION_STEP_KIND, fields.value(Field.genAiOperation)), isTraceRoot);
  if (byOperation !== undefined) return byOperation;

  const oiKind = fields.value(Field.openInferenceKind);
  if (typeof oiKind === 'string') {
    const byOpenInference = fromRule(lookup(OPENINFERENCE_STEP_KIND, upper(oiKind)), isTraceRoot);
    if (byOpenInference !== undefined) return byOpenInference;
  }

  const byTraceloop = fromRule(lookup(TRACELOOP_STEP_KIND, fields.value(Field.traceloopKind)), isTraceRoot);
  if (byTraceloop !== undefined) return byTraceloop;

  if (Object.hasOwn(VERCEL_AI_SPAN_STEP_KIND, spanName)) return VERCEL_AI_SPAN_STEP_KIND[spanName]!;
  for (const [suffix, kind] of VERCEL_AI_SPAN_SUFFIX_STEP_KIND) if (spanName.endsWith(suffix)) return kind;
  return '';
}
