export {
  TelltaleAttr,
  OtelAttr,
  OpenInferenceAttr,
  VercelAiAttr,
  TraceloopAttr,
  GenAiOperation,
  McpAttr,
  McpMetaKey,
  MCP_TOOL_ERROR_TYPE,
} from './attributes.js';
export type { TelltaleAttrName } from './attributes.js';
export { StepKind, STEP_KINDS, isStepKind, RunOutcome, RunStopReason } from './stepKinds.js';
export {
  GEN_AI_OPERATION_STEP_KIND,
  OPENINFERENCE_STEP_KIND,
  VERCEL_AI_SPAN_STEP_KIND,
  VERCEL_AI_SPAN_SUFFIX_STEP_KIND,
  TRACELOOP_STEP_KIND,
} from './mappings.js';
export type { KindRule } from './mappings.js';
export {
  TelltaleError,
  TelltaleErrorCode,
  toTelltaleError,
  isTelltaleErrorCode,
  HTTP_STATUS_BY_CODE,
  RPC_STATUS_BY_CODE,
} from './errors.js';
export { FIELD_SOURCES, SESSION_ID_SOURCES, REASONING_TOKEN_SOURCES } from './fieldSources.js';
export type { CanonicalField } from './fieldSources.js';
export {
  PROJECT_ID_PATTERN,
  OPEN_MODE_PROJECT,
  MAX_RUN_ID_LENGTH,
  API_KEY_KINDS,
  MAX_SPANS_PER_SECOND_LIMIT,
} from './projects.js';
export type { ApiKeyKind } from './projects.js';
export {
  LOOP_KIND_DEFINITIONS,
  LOOP_KINDS,
  LOOP_VARIANTS,
  LOOP_KIND_OF_VARIANT,
  LOOP_VARIANT_CODE,
  LIVE_LOOP_KINDS,
  LOOP_KIND_LABELS,
  LOOP_KIND_SHORT_LABELS,
  isLoopKind,
} from './loopKinds.js';
export type { LoopKind, LoopVariant, LiveLoopKind, LoopKindDefinition, LoopVariantDefinition } from './loopKinds.js';
export {
  LOOP_THRESHOLD_DEFINITIONS,
  LOOP_THRESHOLD_NAMES,
  DEFAULT_LOOP_THRESHOLDS,
  loopThresholdRange,
  loopThresholdProblem,
  resolveLoopThresholds,
} from './loopKinds.js';
export type { LoopThresholdDefinition, LoopThresholdName, LoopThresholds } from './loopKinds.js';
export {
  CONTENT_ATTRIBUTE_SOURCES,
  CONTENT_FLAT_MESSAGE_SOURCES,
  CONTENT_MESSAGE_EVENTS,
  CONTENT_EVENT_BODY_KEYS,
  isContentAttribute,
} from './contentSources.js';
export type { ContentSide, ContentShape, ContentAttributeSource, ContentFlatMessageSource } from './contentSources.js';
export { LATENCY_GROUP_BYS, COST_GROUP_BYS, LOOP_ORDERS, FAILURE_CAUSES } from './metricVocabulary.js';
export type { LatencyGroupBy, CostGroupBy, LoopOrder, FailureCause } from './metricVocabulary.js';
export {
  PERCENTILE_LEVELS,
  EXACT_PERCENTILE_LIMIT,
  DIGEST_RELATIVE_ERROR,
  TAIL_LEVEL,
  MEDIAN_BAND,
} from './latencyLevels.js';
export { RepeatingTask } from './RepeatingTask.js';
export type { RepeatingTaskOptions } from './RepeatingTask.js';
export { seriesIntervalMs } from './seriesInterval.js';
