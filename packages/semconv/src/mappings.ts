import { StepKind } from './stepKinds.js';

/**
 * `gen_ai.operation.name` → step kind. `invoke_agent` maps to `handoff`
 * below the run root and to `run` at the root; the collector decides which.
 */
export const GEN_AI_OPERATION_STEP_KIND: Readonly<Record<string, StepKind>> = {
  chat: StepKind.llm,
  text_completion: StepKind.llm,
  generate_content: StepKind.llm,
  execute_tool: StepKind.tool,
  plan: StepKind.plan,
  retrieval: StepKind.retrieval,
  embeddings: StepKind.retrieval,
  invoke_agent: StepKind.handoff,
};

/** `openinference.span.kind` → step kind (`AGENT` is run or handoff by position). */
export const OPENINFERENCE_STEP_KIND: Readonly<Record<string, StepKind>> = {
  LLM: StepKind.llm,
  TOOL: StepKind.tool,
  RETRIEVER: StepKind.retrieval,
  EMBEDDING: StepKind.retrieval,
  RERANKER: StepKind.retrieval,
  EVALUATOR: StepKind.validate,
  GUARDRAIL: StepKind.validate,
  AGENT: StepKind.handoff,
};

/** Operation names whose spans are agent invocations (root → run, nested → handoff). */
export const AGENT_OPERATIONS: ReadonlySet<string> = new Set(['invoke_agent', 'AGENT']);

/**
 * Vercel AI SDK span names → step kind. Exact names first; suffix rules
 * (`*.doGenerate`, `*.doStream`) are in {@link VERCEL_AI_SPAN_SUFFIX_STEP_KIND}.
 */
export const VERCEL_AI_SPAN_STEP_KIND: Readonly<Record<string, StepKind>> = {
  'ai.toolCall': StepKind.tool,
  chat: StepKind.llm,
};

export const VERCEL_AI_SPAN_SUFFIX_STEP_KIND: ReadonlyArray<readonly [suffix: string, kind: StepKind]> = [
  ['.doGenerate', StepKind.llm],
  ['.doStream', StepKind.llm],
];
