import { OtelAttr, TelltaleAttr } from '@telltale/semconv';
import type { SpanRecord, StoreRows } from '@telltale/store';
import type { AgentSpec, DatasetSpec } from './DatasetSpec.js';
import type { FailureCause, GapClass, RunTruth } from './DatasetTruth.js';
import { planLoop } from './LoopPlan.js';
import { Prng } from './Prng.js';
import { RunIds } from './RunIds.js';
import { RunRecorder, type GroupFact } from './RunRecorder.js';
import { StepExecutor } from './StepExecutor.js';
import { buildLoopTruths } from './buildLoopTruths.js';
import { emptyDraft, sharedAttribute, type RunCommon } from './buildSpanRecord.js';
import { usageCounts } from './spanCostUsd.js';

/** One generated run: its spans (root left out when incomplete), its truth and its groups. */
export interface RunResult {
  spans: SpanRecord[];
  truth: RunTruth;
  groups: readonly GroupFact[];
}

/** What every run of a dataset shares, computed once. */
export interface SimulationContext {
  spec: DatasetSpec;
  weights: number[];
  resources: Map<AgentSpec, ReadonlyArray<{ key: string; value: StoreRows.AttributeValue }>>;
  windowNs: number;
}

export function simulationContext(spec: DatasetSpec): SimulationContext {
  const resources = new Map<AgentSpec, ReadonlyArray<{ key: string; value: StoreRows.AttributeValue }>>();
  for (const a of spec.agents) {
    resources.set(a, [
      { key: OtelAttr.serviceName, value: a.service },
      { key: TelltaleAttr.project, value: a.projectId },
      { key: 'deployment.environment.name', value: 'production' },
    ]);
  }
  return { spec, weights: spec.agents.map((a) => a.weight), resources, windowNs: Number(spec.endNs - spec.startNs) };
}

interface Ending {
  outcome: 'success' | 'failure';
  errorType: string;
  declared: boolean;
}

function primaryCause(loops: number, ex: StepExecutor, rootErrorType: string): FailureCause {
  if (loops > 0) return 'loop';
  if (ex.sideEffectOk) return 'partial_execution';
  if (ex.failedKinds.has('tool')) return 'tool_failure';
  if (ex.lastValidate?.ok === false) return 'validation_exhausted';
  if (ex.failedKinds.has('llm')) return 'llm_error';
  if (/timeout/i.test(rootErrorType)) return 'timeout';
  return 'unknown';
}

/** Generates run `runIndex` of the dataset; depends only on (spec, runIndex). */
export function simulateRun(ctx: SimulationContext, runIndex: number): RunResult {
  const { spec } = ctx;
  const rng = new Prng(spec.seed, runIndex + 1);
  const agent = spec.agents[rng.weightedIndex(ctx.weights)]!;
  const ids = new RunIds(spec.seed, runIndex, rng);
  const tier: 'free' | 'pro' = rng.chance(agent.proShare) ? 'pro' : 'free';
  const incomplete = rng.chance(agent.incompleteRate);
  const loop = incomplete ? undefined : planLoop(agent, rng, spec.thresholds);
  const forced = loop !== undefined;
  const common: RunCommon = {
    projectId: agent.projectId,
    traceId: ids.traceId,
    runId: ids.runId,
    serviceName: agent.service,
    agentName: agent.name,
    tier,
    resource: ctx.resources.get(agent)!,
    runAttributes: [
      Object.freeze({ key: TelltaleAttr.runId, value: ids.runId }),
      sharedAttribute('customer.tier', tier),
    ],
  };
  const rec = new RunRecorder(common, spec.cost.prices);
  const ex = new StepExecutor(rng, ids, rec, agent, spec.cost, {
    forced,
    wrapLlm: rng.chance(agent.usageWrapperRate ?? 0),
    loop,
  });
  const rootId = ids.nextSpanId();
  const body = ex.sequence(agent.steps, { parentId: rootId, t: 0, iteration: 0, loop: undefined });
  const loops = buildLoopTruths(rec, loop, spec.thresholds);

  let ending: Ending = { outcome: 'success', errorType: '', declared: false };
  if (body.failure !== undefined) {
    if (forced || !rng.chance(agent.fallbackRate))
      ending = { outcome: 'failure', errorType: body.failure, declared: false };
  } else if (loop !== undefined) {
    if (rng.chance(agent.loops?.failureRate ?? 0))
      ending = {
        outcome: 'failure',
        errorType: loop.kind === 'runaway' ? 'MaxStepsExceededError' : 'LoopDetectedError',
        declared: false,
      };
  } else if (rng.chance(agent.seamFailureRate)) {
    const errorType = rng.pick(agent.seamErrorTypes);
    ending = { outcome: 'failure', errorType, declared: errorType === '' };
  }

  const rootEnd = body.end + Math.round(500_000 + rng.next() * 9_500_000);
  const root = emptyDraft(rootId, '', agent.name);
  root.isRunRoot = true;
  root.stepKind = 'run';
  root.stepName = agent.name;
  if (ending.outcome === 'failure') {
    root.statusCode = ending.declared ? 0 : 2;
    root.errorType = ending.errorType;
    root.runOutcome = ending.declared ? 'failure' : '';
  } else {
    root.statusCode = rng.chance(0.8) ? 1 : 0;
    root.runOutcome = rng.chance(0.3) ? 'success' : '';
  }
  if (rng.chance(agent.rootUsageRate ?? 0)) {
    root.operation = 'invoke_agent';
    rec.aggregateUsage(root, 0);
  }
  if (!incomplete) rec.emit(root, 0, rootEnd);

  const extent = incomplete ? rec.relEnd.reduce((a, b) => Math.max(a, b), 0) : rootEnd;
  if (extent + 1 >= ctx.windowNs) throw new RangeError(`run ${runIndex} lasts ${extent} ns, longer than the window`);
  const base = spec.startNs + BigInt(Math.floor(rng.next() * (ctx.windowNs - extent - 1)));
  rec.place(base);

  let costUsd = 0;
  let inputTokens = 0;
  let outputTokens = 0;
  let cachedInputTokens = 0;
  for (let i = 0; i < rec.spans.length; i++) {
    const s = rec.spans[i]!;
    costUsd += rec.cost[i]!;
    if (!usageCounts(s.stepKind)) continue;
    inputTokens += s.inputTokens;
    outputTokens += s.outputTokens;
    cachedInputTokens += s.cachedInputTokens;
  }
  const failedGroups = rec.groups.filter((g) => !g.anyOk).length;
  const outcome = incomplete ? 'incomplete' : ending.outcome;
  let gapClass: GapClass | null = null;
  if (outcome === 'failure') gapClass = failedGroups > 0 ? 'step_explained' : 'seam';
  else if (outcome === 'success' && failedGroups > 0) gapClass = 'fallback_recovery';
  const start = incomplete ? base + BigInt(rec.relStart.reduce((a, b) => Math.min(a, b), extent)) : base;
  const end = base + BigInt(extent);
  const truth: RunTruth = {
    runIndex,
    runId: ids.runId,
    traceId: ids.traceId,
    projectId: agent.projectId,
    service: agent.service,
    agent: agent.name,
    tier,
    rootSpanId: incomplete ? null : rootId,
    outcome,
    primaryCause: outcome === 'failure' ? primaryCause(loops.length, ex, root.errorType) : null,
    gapClass,
    startNs: start,
    endNs: end,
    durationNs: Number(end - start),
    spanCount: rec.spans.length,
    steps: rec.steps,
    attemptGroups: rec.groups.length,
    failedGroups,
    costUsd,
    inputTokens,
    outputTokens,
    cachedInputTokens,
    unpricedSpans: rec.unpricedSpans,
    loops,
    forced,
  };
  return { spans: rec.spans, truth, groups: rec.groups };
}
