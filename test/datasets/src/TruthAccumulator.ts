import type { SpanRecord } from '@telltale/store';
import type { AgentSpec, DatasetSpec } from './DatasetSpec.js';
import {
  FAILURE_CAUSES,
  LOOP_KINDS,
  type AgentTruth,
  type DatasetTruth,
  type FailureCauseCounts,
  type LoopKindCounts,
  type ModelTruth,
  type RunTruth,
  type StepTruth,
} from './DatasetTruth.js';
import type { RunResult } from './simulateRun.js';
import { analyticPrediction } from './analyticPrediction.js';
import { exactPercentile } from './exactPercentile.js';
import { spanCostUsd, usageCounts } from './spanCostUsd.js';
import { agentStepNames, stepProbabilities } from './stepProbabilities.js';

const zeroCauses = (): FailureCauseCounts =>
  Object.fromEntries(FAILURE_CAUSES.map((c) => [c, 0])) as FailureCauseCounts;
const zeroLoops = (): LoopKindCounts => Object.fromEntries(LOOP_KINDS.map((k) => [k, 0])) as LoopKindCounts;

/** The upper median (index ⌊n/2⌋ of the sorted values); 0 for none. */
function upperMedian(values: number[]): number {
  if (values.length === 0) return 0;
  return Float64Array.from(values).sort()[Math.floor(values.length / 2)]!;
}

interface AgentTally {
  runs: RunTruth[];
}

/** Folds generated runs into the dataset's truth; `truth()` may be called at any point (truth so far). */
export class TruthAccumulator {
  private readonly runs: RunTruth[] = [];
  private readonly steps = new Map<string, StepTruth>();
  private readonly agents = new Map<AgentSpec, AgentTally>();
  private readonly models = new Map<string, ModelTruth>();
  private spanCount = 0;

  constructor(private readonly spec: DatasetSpec) {
    for (const a of spec.agents) this.agents.set(a, { runs: [] });
  }

  add(result: RunResult): void {
    const run = result.truth;
    this.runs.push(run);
    this.spanCount += result.spans.length;
    const agent = this.spec.agents.find((a) => a.name === run.agent)!;
    this.agents.get(agent)!.runs.push(run);
    for (const g of result.groups) {
      const key = `${run.agent}\u0000${g.stepName}`;
      let st = this.steps.get(key);
      if (st === undefined) {
        const p = stepProbabilities(agentStepNames(agent).get(g.stepName)!.step);
        st = {
          projectId: run.projectId,
          service: run.service,
          agent: run.agent,
          stepName: g.stepName,
          stepKind: g.stepKind,
          groups: 0,
          groupsInSuccessfulRuns: 0,
          firstOk: 0,
          anyOk: 0,
          failedFirst: 0,
          recovered: 0,
          attempts: 0,
          okAttempts: 0,
          retryExtraNs: 0,
          retryExtraCostUsd: 0,
          forcedGroups: 0,
          groupsInIncompleteRuns: 0,
          generating: p,
        };
        this.steps.set(key, st);
      }
      if (run.outcome === 'incomplete') {
        st.groupsInIncompleteRuns++;
        continue;
      }
      st.groups++;
      if (run.outcome === 'success') st.groupsInSuccessfulRuns++;
      if (g.firstOk) st.firstOk++;
      else st.failedFirst++;
      if (g.anyOk) st.anyOk++;
      if (!g.firstOk && g.anyOk) st.recovered++;
      st.attempts += g.attempts;
      st.okAttempts += g.okAttempts;
      st.retryExtraNs += g.retryExtraNs;
      st.retryExtraCostUsd += g.retryExtraCostUsd;
      if (run.forced) st.forcedGroups++;
    }
    for (const s of result.spans) this.addModel(s);
  }

  private addModel(s: SpanRecord): void {
    if (s.model === '' || !usageCounts(s.stepKind)) return;
    let m = this.models.get(s.model);
    if (m === undefined) {
      m = { model: s.model, calls: 0, inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, costUsd: 0 };
      this.models.set(s.model, m);
    }
    m.calls++;
    m.inputTokens += s.inputTokens;
    m.outputTokens += s.outputTokens;
    m.cachedInputTokens += s.cachedInputTokens;
    m.costUsd += spanCostUsd(s, this.spec.cost.prices).costUsd;
  }

  private agentTruth(agent: AgentSpec, runs: readonly RunTruth[]): AgentTruth {
    const count = (pred: (r: RunTruth) => boolean): number => runs.reduce((n, r) => n + (pred(r) ? 1 : 0), 0);
    const success = count((r) => r.outcome === 'success');
    const failure = count((r) => r.outcome === 'failure');
    const causes = zeroCauses();
    const loops = zeroLoops();
    let costUsd = 0;
    for (const r of runs) {
      if (r.primaryCause !== null) causes[r.primaryCause]++;
      for (const l of r.loops) loops[l.kind]++;
      costUsd += r.costUsd;
    }
    const names = agentStepNames(agent);
    let predictedRealized = 1;
    let predictedRealizedK = 1;
    for (const st of this.steps.values()) {
      if (st.agent !== agent.name || st.groups === 0 || success + failure === 0) continue;
      const k = success > 0 ? st.groupsInSuccessfulRuns / success : st.groups / (success + failure);
      predictedRealized *= (st.anyOk / st.groups) ** k;
      predictedRealizedK *= stepProbabilities(names.get(st.stepName)!.step).eventualSuccess ** k;
    }
    const analytic = analyticPrediction(agent);
    const median =
      runs.length === 0
        ? 0
        : exactPercentile(
            runs.map((r) => r.steps),
            0.5,
          );
    const t = this.spec.thresholds;
    // Whatever median a detector uses (lower / upper / mean, all or completed runs), it is ≤ the upper one.
    const highest = Math.max(
      upperMedian(runs.map((r) => r.steps)),
      upperMedian(runs.filter((r) => r.outcome !== 'incomplete').map((r) => r.steps)),
    );
    if (t.runawayMultiplier * highest > t.runawayHardCap) {
      throw new Error(
        `agent ${agent.name}: ${t.runawayMultiplier} × median steps (${highest}) exceeds runawayHardCap ${t.runawayHardCap}; raise the cap so the runaway threshold is the cap`,
      );
    }
    return {
      projectId: agent.projectId,
      service: agent.service,
      agent: agent.name,
      runs: runs.length,
      success,
      failure,
      incomplete: runs.length - success - failure,
      observedSuccess: success + failure === 0 ? 0 : success / (success + failure),
      stepExplainedFailures: count((r) => r.gapClass === 'step_explained'),
      seamFailures: count((r) => r.gapClass === 'seam'),
      fallbackRecoveries: count((r) => r.gapClass === 'fallback_recovery'),
      predictedRealized,
      predictedTrue: analytic?.predicted ?? predictedRealizedK,
      predictedTrueMethod: analytic === undefined ? 'realized-k' : 'analytic',
      trueSuccessProbability: analytic?.successProbability ?? null,
      causes,
      loops,
      medianStepsPerRun: median,
      runawayThreshold: Math.max(t.runawayMultiplier * median, t.runawayHardCap),
      tailDriver: agent.tailDriver ?? null,
      costUsd,
    };
  }

  truth(): DatasetTruth {
    const agents = [...this.agents].filter(([, t]) => t.runs.length > 0).map(([a, t]) => this.agentTruth(a, t.runs));
    const causes = zeroCauses();
    const loops = zeroLoops();
    let costUsd = 0;
    let inputTokens = 0;
    let outputTokens = 0;
    for (const r of this.runs) {
      if (r.primaryCause !== null) causes[r.primaryCause]++;
      for (const l of r.loops) loops[l.kind]++;
      costUsd += r.costUsd;
      inputTokens += r.inputTokens;
      outputTokens += r.outputTokens;
    }
    let weighted = 0;
    let completed = 0;
    for (const a of agents) {
      weighted += a.predictedRealized * (a.success + a.failure);
      completed += a.success + a.failure;
    }
    const success = agents.reduce((n, a) => n + a.success, 0);
    const failure = agents.reduce((n, a) => n + a.failure, 0);
    return {
      seed: this.spec.seed,
      startNs: this.spec.startNs,
      endNs: this.spec.endNs,
      thresholds: this.spec.thresholds,
      spanCount: this.spanCount,
      runs: [...this.runs],
      steps: [...this.steps.values()].map((s) => ({ ...s })),
      agents,
      models: [...this.models.values()].map((m) => ({ ...m })),
      totals: {
        runs: this.runs.length,
        success,
        failure,
        incomplete: this.runs.length - success - failure,
        costUsd,
        inputTokens,
        outputTokens,
        causes,
        loops,
        predictedRealized: completed === 0 ? 0 : weighted / completed,
      },
    };
  }
}
