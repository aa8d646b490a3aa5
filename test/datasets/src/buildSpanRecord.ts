import { OtelAttr, TelltaleAttr, VercelAiAttr } from '@telltale/semconv';
import type { SpanRecord, StoreRows } from '@telltale/store';

type KeyValue = { key: string; value: StoreRows.AttributeValue };

/** What a span of a generated run looks like before its times are placed in the window. */
export interface SpanDraft {
  spanId: string;
  parentSpanId: string;
  name: string;
  /** OTLP span kind: 1 internal, 3 client. */
  spanKind: number;
  isRunRoot: boolean;
  stepKind: string;
  stepName: string;
  attempt: number;
  maxAttempts: number;
  toolName: string;
  toolArgsHash: string;
  stateHash: string;
  outputHash: string;
  sideEffect: boolean;
  model: string;
  provider: string;
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
  costUsd: number | null;
  statusCode: number;
  errorType: string;
  runOutcome: string;
  /** `gen_ai.operation.name`, or '' for none. */
  operation: string;
  /** Vercel AI SDK wrapper spans name their usage attributes `ai.usage.*`. */
  vercelWrapper: boolean;
}

/** What all spans of a run share. */
export interface RunCommon {
  projectId: string;
  traceId: string;
  runId: string;
  serviceName: string;
  agentName: string;
  tier: 'free' | 'pro';
  resource: readonly KeyValue[];
  /** The run id and tier attributes, shared by every span of the run. */
  runAttributes: readonly KeyValue[];
}

const shared = new Map<string, Map<string, KeyValue>>();

/**
 * One frozen attribute object per (key, value) for low-cardinality string
 * attributes (kinds, names, models): millions of spans share them instead of
 * allocating their own.
 */
export function sharedAttribute(key: string, value: string): KeyValue {
  let byValue = shared.get(key);
  if (byValue === undefined) {
    byValue = new Map();
    shared.set(key, byValue);
  }
  let kv = byValue.get(value);
  if (kv === undefined) {
    kv = Object.freeze({ key, value });
    byValue.set(value, kv);
  }
  return kv;
}

const SIDE_EFFECT: KeyValue = Object.freeze({ key: TelltaleAttr.stepSideEffect, value: true });

export const SCOPE = { name: '@telltale/sdk', version: '0.1.0' } as const;

/** The raw attributes an instrumented agent would send for this span (canonical fields mirrored). */
function attributesOf(d: SpanDraft, run: RunCommon): KeyValue[] {
  const a: KeyValue[] = [...run.runAttributes];
  if (d.stepKind !== '') a.push(sharedAttribute(TelltaleAttr.stepKind, d.stepKind));
  if (d.stepName !== '') a.push(sharedAttribute(TelltaleAttr.stepName, d.stepName));
  if (d.attempt > 0) {
    a.push({ key: TelltaleAttr.stepAttempt, value: BigInt(d.attempt) });
    a.push({ key: TelltaleAttr.stepMaxAttempts, value: BigInt(d.maxAttempts) });
  }
  if (d.sideEffect) a.push(SIDE_EFFECT);
  if (d.operation !== '') a.push(sharedAttribute(OtelAttr.genAiOperationName, d.operation));
  if (d.isRunRoot || d.stepKind === 'handoff')
    a.push(sharedAttribute(OtelAttr.genAiAgentName, d.isRunRoot ? run.agentName : d.stepName));
  if (d.toolName !== '') {
    a.push(sharedAttribute(TelltaleAttr.toolName, d.toolName));
    a.push(sharedAttribute(OtelAttr.genAiToolName, d.toolName));
  }
  if (d.toolArgsHash !== '') a.push({ key: TelltaleAttr.toolArgsHash, value: d.toolArgsHash });
  if (d.stateHash !== '') a.push({ key: TelltaleAttr.stateHash, value: d.stateHash });
  if (d.outputHash !== '') a.push({ key: TelltaleAttr.outputHash, value: d.outputHash });
  if (d.model !== '') {
    if (d.vercelWrapper) {
      a.push(sharedAttribute(VercelAiAttr.modelId, d.model));
      a.push(sharedAttribute(VercelAiAttr.modelProvider, d.provider));
    } else {
      a.push(sharedAttribute(OtelAttr.genAiProviderName, d.provider));
      a.push(sharedAttribute(OtelAttr.genAiRequestModel, d.model));
      a.push(sharedAttribute(OtelAttr.genAiResponseModel, d.model));
    }
  }
  if (d.inputTokens + d.outputTokens > 0) {
    if (d.vercelWrapper) {
      a.push({ key: VercelAiAttr.inputTokens, value: BigInt(d.inputTokens) });
      a.push({ key: VercelAiAttr.outputTokens, value: BigInt(d.outputTokens) });
    } else {
      a.push({ key: OtelAttr.genAiInputTokens, value: BigInt(d.inputTokens) });
      a.push({ key: OtelAttr.genAiOutputTokens, value: BigInt(d.outputTokens) });
      a.push({ key: OtelAttr.genAiCacheReadInputTokens, value: BigInt(d.cachedInputTokens) });
    }
  }
  if (d.costUsd !== null) a.push({ key: TelltaleAttr.costUsd, value: d.costUsd });
  if (d.errorType !== '') a.push(sharedAttribute(OtelAttr.errorType, d.errorType));
  if (d.runOutcome !== '') a.push(sharedAttribute(TelltaleAttr.runOutcome, d.runOutcome));
  return a;
}

/** A canonical span row; times are 0 until the run is placed in the window. */
export function buildSpanRecord(d: SpanDraft, run: RunCommon): SpanRecord {
  return {
    projectId: run.projectId,
    traceId: run.traceId,
    spanId: d.spanId,
    parentSpanId: d.parentSpanId,
    traceState: '',
    runId: run.runId,
    isRunRoot: d.isRunRoot,
    serviceName: run.serviceName,
    name: d.name,
    spanKind: d.spanKind,
    stepKind: d.stepKind,
    stepName: d.stepName,
    attempt: d.attempt,
    toolName: d.toolName,
    toolArgsHash: d.toolArgsHash,
    stateHash: d.stateHash,
    outputHash: d.outputHash,
    sideEffect: d.sideEffect,
    model: d.model,
    provider: d.provider,
    inputTokens: d.inputTokens,
    outputTokens: d.outputTokens,
    cachedInputTokens: d.cachedInputTokens,
    costUsd: d.costUsd,
    startTimeUnixNano: 0n,
    endTimeUnixNano: 0n,
    statusCode: d.statusCode,
    statusMessage: d.statusCode === 2 ? `${d.errorType || 'Error'}: ${d.stepName || d.name} failed` : '',
    errorType: d.errorType,
    runOutcome: d.runOutcome,
    attributes: attributesOf(d, run),
    resourceAttributes: run.resource,
    scopeName: SCOPE.name,
    scopeVersion: SCOPE.version,
    events: [],
    links: [],
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
  };
}

/** A draft with every field at its empty value. */
export function emptyDraft(spanId: string, parentSpanId: string, name: string): SpanDraft {
  return {
    spanId,
    parentSpanId,
    name,
    spanKind: 1,
    isRunRoot: false,
    stepKind: '',
    stepName: '',
    attempt: 0,
    maxAttempts: 0,
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
    statusCode: 0,
    errorType: '',
    runOutcome: '',
    operation: '',
    vercelWrapper: false,
  };
}
