import { OtelAttr, StepKind } from '@telltale/semconv';
import type { SpanRecord } from '@telltale/store/encode';
import type { OtlpEvent } from '../otlp/types.js';
import { argsHash } from './argsHash.js';
import { boundedRunId } from './boundedRunId.js';
import { Field, type SpanFields } from './attributeLookup.js';
import { resolveStepKind } from './stepKind.js';
import { stableSpanName } from './stepName.js';

/** The columns of a span record that its canonical fields, name, parent and status give. */
export type DerivedColumns = Pick<
  SpanRecord,
  | 'runId'
  | 'isRunRoot'
  | 'stepKind'
  | 'stepName'
  | 'attempt'
  | 'toolName'
  | 'toolArgsHash'
  | 'stateHash'
  | 'outputHash'
  | 'sideEffect'
  | 'model'
  | 'provider'
  | 'inputTokens'
  | 'outputTokens'
  | 'cachedInputTokens'
  | 'costUsd'
  | 'errorType'
  | 'runOutcome'
>;

/** An empty target for {@link deriveColumns}, to be reused. */
export function emptyDerivedColumns(): DerivedColumns {
  return {
    runId: '',
    isRunRoot: false,
    stepKind: '',
    stepName: '',
    attempt: 0,
    toolName: '',
    toolArgsHash: '',
    stateHash: '',
    outputHash: '',
    sideEffect: false,
    model: '',
    provider: '',
    inputTokens: 0,
    outputTokens: 0,
    cachedInputTokens: 0,
    costUsd: null,
    errorType: '',
    runOutcome: '',
  };
}

/** The `error.type` of a failed span, falling back to its recorded exception. */
function errorTypeOf(statusCode: number, events: readonly OtlpEvent[], fields: SpanFields): string {
  const declared = fields.string(Field.errorType);
  if (declared !== '' || statusCode !== 2) return declared;
  for (const event of events) {
    if (event.name !== 'exception') continue;
    const type = event.attributes.find((kv) => kv.key === OtelAttr.exceptionType)?.value;
    if (typeof type === 'string') return type;
  }
  return '';
}

/** An explicit cost: the total, else the sum of the prompt and completion parts that are given. */
function costOf(fields: SpanFields): number | null {
  const total = fields.number(Field.costUsd);
  if (total !== null) return total;
  const prompt = fields.number(Field.costPromptUsd);
  const completion = fields.number(Field.costCompletionUsd);
  return prompt === null && completion === null ? null : (prompt ?? 0) + (completion ?? 0);
}

/**
 * `{operation} {subject}` for a GenAI span, as the spec names its spans:
 * the agent for agent operations, else the requested model; '' without an
 * operation or subject.
 */
function genAiStepName(fields: SpanFields): string {
  const operation = fields.string(Field.genAiOperation);
  if (operation === '') return '';
  const subject = fields.string(Field.genAiAgentName) || fields.string(Field.genAiRequestModel);
  return subject === '' ? '' : `${operation} ${subject}`;
}

/**
 * Fills `out` with what a span's canonical fields (read into `fields`), name,
 * parent ('' for a trace root), status code and events say: its run, step,
 * tool, hashes, model, usage and error type. Shared by the object path
 * (normaliseRequest) and the fused protobuf path.
 */
export function deriveColumns(
  out: DerivedColumns,
  fields: SpanFields,
  traceId: string,
  name: string,
  parentSpanId: string,
  statusCode: number,
  events: readonly OtlpEvent[],
): DerivedColumns {
  const stepKind = resolveStepKind(fields, name, parentSpanId === '');
  const isTool = stepKind === StepKind.tool;
  // tool steps without a tool-name attribute: OpenLLMetry names them in traceloop.entity.name, OpenInference in the span name
  const toolName = fields.string(Field.toolName) || (isTool ? fields.string(Field.entityName) || name : '');
  out.stepName =
    stepKind === ''
      ? ''
      : fields.string(Field.stepName) ||
        (isTool ? toolName : '') ||
        fields.string(Field.entityName) ||
        genAiStepName(fields) ||
        stableSpanName(name);
  let inputTokens = fields.count(Field.inputTokens);
  const outputTokens = fields.count(Field.outputTokens);
  if (inputTokens === 0 && outputTokens === 0) inputTokens = fields.count(Field.totalTokens);
  out.runId = boundedRunId(fields.string(Field.runId)) || traceId;
  out.isRunRoot = stepKind === StepKind.run || parentSpanId === '';
  out.stepKind = stepKind;
  out.attempt = Math.min(fields.count(Field.attempt), 65_535);
  out.toolName = toolName;
  out.toolArgsHash = fields.string(Field.toolArgsHash) || (isTool ? argsHash(fields.value(Field.toolArgs)) : '');
  out.stateHash = fields.string(Field.stateHash);
  out.outputHash = fields.string(Field.outputHash);
  out.sideEffect = fields.bool(Field.sideEffect);
  out.model = fields.string(Field.model);
  out.provider = fields.string(Field.provider);
  out.inputTokens = inputTokens;
  out.outputTokens = outputTokens;
  out.cachedInputTokens = fields.count(Field.cachedInputTokens);
  out.costUsd = costOf(fields);
  out.errorType = errorTypeOf(statusCode, events, fields);
  out.runOutcome = fields.string(Field.runOutcome);
  return out;
}
