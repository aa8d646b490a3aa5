import { LOOP_KIND_OF_VARIANT, LOOP_VARIANTS, LOOP_VARIANT_CODE } from '@telltale/semconv';
import { DEFAULT_LOOP_THRESHOLDS } from '../../analytics/loopTypes.js';
import { TIMEOUT_ERROR_PATTERN } from '../../sql/causeSql.js';
import type { FactSpan } from './FactSpan.js';
import { loopDetections, type LoopDetection } from './loopDetections.js';
import { selfTimes, type SelfTime } from './selfTimes.js';
import { compareBigints, compareStrings, keyOfSpan, SumMap } from './spanOrder.js';
import { stepLedger } from './stepLedger.js';

/** A run_facts row (migration 0003) but project, ingest time and version. */
export interface RunFactRow {
  run_id: string;
  run_start: bigint;
  run_end: bigint;
  agent: string;
  service: string;
  outcome: string;
  duration_ns: bigint;
  root_error_type: string;
  steps: number;
  span_count: number;
  groups: number;
  never_ok: number;
  explicit_cost: number;
  usage_models: string[];
  usage_uncached: number[];
  usage_cached: number[];
  usage_output: number[];
  usage_spans: number[];
  input_tokens: number;
  output_tokens: number;
  cached_input_tokens: number;
  loop_kinds: string[];
  loop_dets: LoopDetection[];
  cause_base: string;
  self_times: SelfTime[];
  session_id: string;
}

/** A run_step_facts row but project and version. */
export interface StepFactRow {
  run_id: string;
  step_name: string;
  step_kind: string;
  run_start: bigint;
  agent: string;
  service: string;
  outcome: string;
  groups: number;
  first_ok: number;
  recovered: number;
  attempts: number;
  ok_attempts: number;
  retry_ns: bigint;
  retry_explicit_cost: number;
  retry_models: string[];
  retry_uncached: number[];
  retry_cached: number[];
  retry_output: number[];
}

/** A run_steps row but project and version. */
export interface RunStepsRow {
  run_id: string;
  run_start: bigint;
  start_ns: bigint[];
  span_key: bigint[];
  duration_ns: bigint[];
  explicit_cost: number[];
  model: string[];
  uncached: number[];
  cached: number[];
  output: number[];
}

export interface RunFactRows {
  run: RunFactRow;
  steps: StepFactRow[];
  runSteps: RunStepsRow | undefined;
}

const TIMEOUT = new RegExp(TIMEOUT_ERROR_PATTERN.replace(/^\(\?i\)/, ''), 'i');
const KIND_OF_CODE = new Map(LOOP_VARIANTS.map((v) => [LOOP_VARIANT_CODE[v], LOOP_KIND_OF_VARIANT[v]]));
const LOOP_THRESHOLDS = {
  repeat: DEFAULT_LOOP_THRESHOLDS.repeat,
  pingPongCycles: DEFAULT_LOOP_THRESHOLDS.pingPongCycles,
};

const isStep = (s: FactSpan): boolean => s.stepKind !== '' && s.stepKind !== 'run';
const usageCounted = (s: FactSpan): boolean => s.stepKind !== '' && s.stepKind !== 'run' && s.stepKind !== 'handoff';
const rankOf = (s: FactSpan): number => (s.stepKind === 'run' ? 2 : s.isRunRoot ? 1 : 0);
/** `cost` of PRICED_SPANS_CTE with no price table: the explicit cost of a counted span, else 0. */
const costOf = (s: FactSpan): number =>
  usageCounted(s) && s.costUsd !== null && !Number.isNaN(s.costUsd) ? s.costUsd : 0;
/** A span's cached input tokens, as its usage counts them (never more than its input). */
const cachedOf = (s: FactSpan): number => Math.min(s.cachedInputTokens, s.inputTokens);
const tablePriced = (s: FactSpan): boolean =>
  usageCounted(s) && s.costUsd === null && s.inputTokens + s.outputTokens > 0;

/**
 * The facts of one run from its spans (each stored span once), equal to what
 * the SQL finaliser (finaliseSql.ts) writes for them: the TypeScript twin of
 * its CTEs, kept to their rules line by line. `positions` (span id to its
 * index in `spans`), when the caller has it: the ids are then unique.
 */
export function computeRunFacts(
  runId: string,
  spans: readonly FactSpan[],
  positions?: ReadonlyMap<string, number>,
): RunFactRows {
  let root: FactSpan | undefined;
  let rootRank = 0;
  let first: FactSpan | undefined;
  let runStart = 0n;
  let runEnd = 0n;
  let steps = 0;
  let inputTokens = 0;
  let outputTokens = 0;
  let cachedTokens = 0;
  let explicitCost = 0;
  let session: FactSpan | undefined;
  const usage = new SumMap(4);
  const stepSpans: FactSpan[] = [];
  for (const s of spans) {
    if (first === undefined) {
      first = s;
      runStart = s.startNs;
      runEnd = s.endNs;
    } else {
      if (s.startNs < runStart) runStart = s.startNs;
      if (s.endNs > runEnd) runEnd = s.endNs;
    }
    const rank = rankOf(s);
    if (rank > 0 && (root === undefined || rank > rootRank || (rank === rootRank && s.startNs < root.startNs))) {
      root = s;
      rootRank = rank;
    }
    // the start first: a span read from a batch finds its session id only when asked (readFactSpans)
    if ((session === undefined || s.startNs < session.startNs) && s.sessionId !== '') session = s;
    if (isStep(s)) {
      steps++;
      stepSpans.push(s);
    }
    if (usageCounted(s)) {
      inputTokens += s.inputTokens;
      outputTokens += s.outputTokens;
      const cached = cachedOf(s);
      cachedTokens += cached;
      explicitCost += s.costUsd ?? 0;
      if (tablePriced(s)) usage.add(s.model, s.inputTokens - cached, cached, s.outputTokens, 1);
    }
  }
  const agent = root?.name ?? '';
  const service = root?.serviceName ?? first?.serviceName ?? '';
  const outcome =
    root === undefined ? 'incomplete' : root.statusCode === 2 || root.runOutcome === 'failure' ? 'failure' : 'success';
  const rootErrorType = root?.errorType ?? '';

  // the attempt-group ledger: run totals, and sums per step name
  const ledger = stepLedger(stepSpans);
  let groups = 0;
  let firstOk = 0;
  let recovered = 0;
  const neverOkOf = { tool: 0, llm: 0 };
  const byStep = new Map<string, { row: StepFactRow; retry: SumMap }>();
  for (const l of ledger) {
    const s = l.span;
    groups += +l.gStart;
    firstOk += +l.gFirstOk;
    recovered += +l.gRecovered;
    if (s.stepKind === 'tool' || s.stepKind === 'llm') neverOkOf[s.stepKind] += +l.gStart - +l.gFirstOk - +l.gRecovered;
    let step = byStep.get(s.stepName);
    if (step === undefined) {
      step = {
        row: {
          run_id: runId,
          step_name: s.stepName,
          step_kind: s.stepKind,
          run_start: runStart,
          agent,
          service,
          outcome,
          groups: 0,
          first_ok: 0,
          recovered: 0,
          attempts: 0,
          ok_attempts: 0,
          retry_ns: 0n,
          retry_explicit_cost: 0,
          retry_models: [],
          retry_uncached: [],
          retry_cached: [],
          retry_output: [],
        },
        retry: new SumMap(3),
      };
      byStep.set(s.stepName, step);
    }
    const r = step.row;
    r.groups += +l.gStart;
    r.first_ok += +l.gFirstOk;
    r.recovered += +l.gRecovered;
    r.attempts++;
    r.ok_attempts += +l.ok;
    if (!l.gStart) {
      r.retry_ns += s.endNs - s.startNs;
      if (usageCounted(s)) r.retry_explicit_cost += s.costUsd ?? 0;
      if (tablePriced(s)) {
        const cached = cachedOf(s);
        step.retry.add(s.model, s.inputTokens - cached, cached, s.outputTokens);
      }
    }
  }
  const stepRows = [...byStep.values()].map(({ row, retry }) => {
    [row.retry_models, row.retry_uncached, row.retry_cached, row.retry_output] = retry.columns() as [
      string[],
      number[],
      number[],
      number[],
    ];
    return row;
  });
  const neverOk = groups - firstOk - recovered;

  const dets = stepSpans.length === 0 ? [] : loopDetections(stepSpans, costOf, LOOP_THRESHOLDS);
  const [models, uncached, cached, output, spanCounts] = usage.columns() as [
    string[],
    number[],
    number[],
    number[],
    number[],
  ];
  const run: RunFactRow = {
    run_id: runId,
    run_start: runStart,
    run_end: runEnd,
    agent,
    service,
    outcome,
    duration_ns: root !== undefined ? root.endNs - root.startNs : runEnd - runStart,
    root_error_type: rootErrorType,
    steps,
    span_count: spans.length,
    groups,
    // the SQL's Int64 difference lands in a UInt32 column: a negative one wraps (a retry whose first attempt is missing)
    never_ok: neverOk >= 0 ? neverOk : 2 ** 32 + (neverOk % 2 ** 32),
    explicit_cost: explicitCost,
    usage_models: models,
    usage_uncached: uncached,
    usage_cached: cached,
    usage_output: output,
    usage_spans: spanCounts,
    input_tokens: inputTokens,
    output_tokens: outputTokens,
    cached_input_tokens: cachedTokens,
    loop_kinds: [...new Set(dets.map((d) => KIND_OF_CODE.get(d[0]) ?? ''))],
    loop_dets: dets,
    cause_base:
      outcome === 'failure'
        ? causeWithoutLoop(stepSpans, runEnd, rootErrorType, neverOk, neverOkOf.tool, neverOkOf.llm)
        : '',
    self_times: selfTimes(spans, rankOf, positions),
    session_id: session?.sessionId ?? '',
  };
  return { run, steps: stepRows, runSteps: runStepsOf(runId, stepSpans) };
}

/** CAUSE_WITHOUT_LOOP_SQL over CAUSE_FACTS_CTE's columns. */
function causeWithoutLoop(
  stepSpans: readonly FactSpan[],
  runEnd: bigint,
  rootErrorType: string,
  neverOk: number,
  neverOkTool: number,
  neverOkLlm: number,
): string {
  let lastFail: FactSpan | undefined;
  let lastFailEnd = 0n;
  let okEffects = 0;
  let firstEffectEnd = 0n;
  let validations = 0;
  let lastValidate: FactSpan | undefined;
  for (const s of stepSpans) {
    const ok = s.statusCode !== 2;
    if (!ok) {
      if (lastFail === undefined || s.endNs > lastFailEnd) lastFailEnd = s.endNs;
      if (
        lastFail === undefined ||
        s.endNs > lastFail.endNs ||
        (s.endNs === lastFail.endNs && compareStrings(s.spanId, lastFail.spanId) > 0)
      )
        lastFail = s;
    }
    if (s.sideEffect && ok) {
      if (okEffects === 0 || s.endNs < firstEffectEnd) firstEffectEnd = s.endNs;
      okEffects++;
    }
    if (s.stepKind === 'validate') {
      validations++;
      if (
        lastValidate === undefined ||
        s.startNs > lastValidate.startNs ||
        (s.startNs === lastValidate.startNs && compareStrings(s.spanId, lastValidate.spanId) > 0)
      )
        lastValidate = s;
    }
  }
  if (okEffects > 0 && firstEffectEnd <= (neverOk > 0 ? lastFailEnd : runEnd)) return 'partial_execution';
  if (neverOkTool > 0) return 'tool_failure';
  if (validations > 0 && lastValidate?.statusCode === 2) return 'validation_exhausted';
  if (neverOkLlm > 0) return 'llm_error';
  if (TIMEOUT.test(rootErrorType) || (neverOk > 0 && TIMEOUT.test(lastFail?.errorType ?? ''))) return 'timeout';
  return 'unknown';
}

/** FINALISE_RUN_STEPS_SQL: every step span in (start, span key) order with its cost inputs; none without steps. */
function runStepsOf(runId: string, stepSpans: readonly FactSpan[]): RunStepsRow | undefined {
  if (stepSpans.length === 0) return undefined;
  for (const s of stepSpans) keyOfSpan(s);
  const rows = stepSpans
    .slice()
    .sort((a, b) => compareBigints(a.startNs, b.startNs) || compareBigints(a.spanKey!, b.spanKey!));
  const runStart = rows[0]!.startNs;
  const out: RunStepsRow = {
    run_id: runId,
    run_start: runStart,
    start_ns: [],
    span_key: [],
    duration_ns: [],
    explicit_cost: [],
    model: [],
    uncached: [],
    cached: [],
    output: [],
  };
  for (const s of rows) {
    const cached = cachedOf(s);
    out.start_ns.push(s.startNs);
    out.span_key.push(s.spanKey!);
    out.duration_ns.push(s.endNs - s.startNs);
    out.explicit_cost.push(usageCounted(s) ? (s.costUsd ?? Number.NaN) : 0);
    out.model.push(s.model);
    out.uncached.push(s.inputTokens - cached);
    out.cached.push(cached);
    out.output.push(s.outputTokens);
  }
  return out;
}
