import type { StoreRows } from '@telltale/store';
import type { Estimate } from '../stats/Interval.js';
import { wilson } from '../stats/wilson.js';
import { predictEndToEnd, type AgentPrediction } from './predict.js';

export interface StepReliability {
  stepName: string;
  stepKind: string;
  groups: number;
  attempts: number;
  /** a(s): OK attempts / attempts. */
  attemptSuccess: Estimate;
  /** f(s): groups whose first attempt is OK / groups. */
  firstAttemptSuccess: Estimate;
  /** p(s): groups with any OK attempt / groups. */
  eventualSuccess: Estimate;
  /** r(s): groups that failed first and later succeeded / groups that failed first. */
  recovery: Estimate;
  retryExtraNs: number;
  retryExtraCostUsd: number;
  /** Predicted end-to-end success if p(s) reached the what-if target. */
  whatIfPredicted: number | null;
  /** whatIfPredicted − predicted: the weakest link has the largest gain. */
  whatIfGain: number | null;
}

export interface ReliabilitySummary {
  runs: { success: number; failure: number; incomplete: number };
  observed: Estimate;
  predicted: Estimate;
  /** G = O − P, with the two variances added. */
  gap: Estimate;
  decomposition: { stepExplainedFailures: number; seamFailures: number; fallbackRecoveries: number };
  agents: Array<AgentPrediction & { observed: Estimate }>;
  steps: StepReliability[];
  whatIfTarget: number;
}

function sumBy<T>(rows: readonly T[], f: (row: T) => number): number {
  return rows.reduce((sum, row) => sum + f(row), 0);
}

/** Everything RELIABILITY-MATH.md "Compounding reliability" defines, from two queries' rows. */
export function reliabilityReport(
  stepStats: readonly StoreRows.StepGroupStats[],
  agentStats: readonly StoreRows.AgentRunStats[],
  whatIfTarget = 0.99,
): ReliabilitySummary {
  const success = sumBy(agentStats, (a) => a.success);
  const failure = sumBy(agentStats, (a) => a.failure);
  const observed = wilson(success, success + failure);
  const base = predictEndToEnd(stepStats, agentStats);
  const predicted = base.predicted;

  let gap: Estimate = { value: null, low: null, high: null, n: success + failure };
  if (observed.value !== null && predicted.value !== null) {
    const value = observed.value - predicted.value;
    const halfO = ((observed.high ?? 0) - (observed.low ?? 0)) / 2;
    const halfP = ((predicted.high ?? 0) - (predicted.low ?? 0)) / 2;
    const half = Math.sqrt(halfO ** 2 + halfP ** 2);
    gap = { value, low: value - half, high: value + half, n: success + failure };
  }

  const byStep = new Map<string, StoreRows.StepGroupStats[]>();
  for (const s of stepStats) byStep.set(s.stepName, [...(byStep.get(s.stepName) ?? []), s]);
  const steps: StepReliability[] = [...byStep].map(([stepName, rows]) => {
    const groups = sumBy(rows, (r) => r.groups);
    const p = groups === 0 ? 1 : sumBy(rows, (r) => r.anyOk) / groups;
    const whatIf =
      p >= whatIfTarget
        ? predicted.value
        : predictEndToEnd(stepStats, agentStats, new Map([[stepName, whatIfTarget]])).predicted.value;
    return {
      stepName,
      stepKind: rows[0]?.stepKind ?? '',
      groups,
      attempts: sumBy(rows, (r) => r.attempts),
      attemptSuccess: wilson(
        sumBy(rows, (r) => r.okAttempts),
        sumBy(rows, (r) => r.attempts),
      ),
      firstAttemptSuccess: wilson(
        sumBy(rows, (r) => r.firstOk),
        groups,
      ),
      eventualSuccess: wilson(
        sumBy(rows, (r) => r.anyOk),
        groups,
      ),
      recovery: wilson(
        sumBy(rows, (r) => r.recovered),
        sumBy(rows, (r) => r.failedFirst),
      ),
      retryExtraNs: sumBy(rows, (r) => r.retryExtraNs),
      retryExtraCostUsd: sumBy(rows, (r) => r.retryExtraCostUsd),
      whatIfPredicted: whatIf,
      whatIfGain: whatIf === null || predicted.value === null ? null : whatIf - predicted.value,
    };
  });
  steps.sort((a, b) => (b.whatIfGain ?? 0) - (a.whatIfGain ?? 0) || a.stepName.localeCompare(b.stepName));

  const agents = base.agents.map((a) => {
    const stats = agentStats.find((s) => s.agent === a.agent && s.service === a.service);
    return {
      ...a,
      observed: stats === undefined ? wilson(0, 0) : wilson(stats.success, stats.success + stats.failure),
    };
  });

  return {
    runs: { success, failure, incomplete: sumBy(agentStats, (a) => a.incomplete) },
    observed,
    predicted,
    gap,
    decomposition: {
      stepExplainedFailures: sumBy(agentStats, (a) => a.stepExplainedFailures),
      seamFailures: sumBy(agentStats, (a) => a.seamFailures),
      fallbackRecoveries: sumBy(agentStats, (a) => a.fallbackRecoveries),
    },
    agents,
    steps,
    whatIfTarget,
  };
}
