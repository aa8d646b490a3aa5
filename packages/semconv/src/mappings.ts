import { GenAiOperation } from './attributes.js';
import { StepKind } from './stepKinds.js';

/**
 * The step-kind tables (RELIABILITY-MATH.md, "Step"). Values marked `agent`
 * are agent invocations: the run itself at the trace root, a handoff below
 * it; the collector decides which by position.
 */
export type KindRule = StepKind | 'agent';

/** `gen_ai.operation.name` → step kind. */
export const GEN_AI_OPERATION_STEP_KIND: Readonly<Record<string, KindRule>> = {
  [GenAiOperation.chat]: StepKind.llm,
  [GenAiOperation.textCompletion]: StepKind.llm,
  [GenAiOperation.generateContent]: StepKind.llm,
  [GenAiOperation.executeTool]: StepKind.tool,
  plan: StepKind.plan,
  retrieval: StepKind.retrieval,
  embeddings: StepKind.retrieval,
  [GenAiOperation.invokeAgent]: 'agent',
  /** Setting an agent up is work of its own, not a model or tool call. */
  create_agent: StepKind.custom,
};

/** `openinference.span.kind` (upper case) → step kind. CHAIN, PROMPT and UNKNOWN spans are not steps. */
export const OPENINFERENCE_STEP_KIND: Readonly<Record<string, KindRule>> = {
  LLM: StepKind.llm,
  TOOL: StepKind.tool,
  RETRIEVER: StepKind.retrieval,
  EMBEDDING: StepKind.retrieval,
  RERANKER: StepKind.retrieval,
  EVALUATOR: StepKind.validate,
  GUARDRAIL: StepKind.validate,
  AGENT: 'agent',
};

/**
 * `traceloop.span.kind` (OpenLLMetry's decorators) → step kind. A workflow
 * is the run at the root and, nested, a handoff like an agent; a task is a
 * step of its own kind. Sessions are not steps.
 */
export const TRACELOOP_STEP_KIND: Readonly<Record<string, KindRule>> = {
  workflow: 'agent',
  agent: 'agent',
  task: StepKind.custom,
  tool: StepKind.tool,
};

/**
 * Vercel AI SDK span names → step kind. Exact names first; suffix rules
 * (`*.doGenerate`, `*.doStream`, `*.doEmbed`) are in
 * {@link VERCEL_AI_SPAN_SUFFIX_STEP_KIND}. The outer `ai.generateText`,
 * `ai.streamText`… spans are not steps: they carry the totals of their
 * `do*` children, which are counted instead.
 */
export const VERCEL_AI_SPAN_STEP_KIND: Readonly<Record<string, StepKind>> = {
  'ai.toolCall': StepKind.tool,
  chat: StepKind.llm,
};

export const VERCEL_AI_SPAN_SUFFIX_STEP_KIND: ReadonlyArray<readonly [suffix: string, kind: StepKind]> = [
  ['.doGenerate', StepKind.llm],
  ['.doStream', StepKind.llm],
  ['.doEmbed', StepKind.retrieval],
];
