import type { CostSummary, FailureBreakdown, LoopDetection, LoopKind, LoopRate, LoopsReport } from '../api/analyticsSchemas';
import { formatCount, formatDuration, formatPercent, formatUsd } from '../format';
import type { Fraction, Nanoseconds, Usd } from '../units';
import { fraction, nanoseconds, usd } from '../units';
import { runHref } from './prepareRunsTable';

export const LOOP_KIND_LABELS: Readonly<Record<LoopKind, string>> = {
  repeated_action: 'Repeated action',
  no_progress: 'No progress',
  ping_pong: 'Ping-pong',
  runaway: 'Runaway',
};

/** What repeated, in words: the tool and its argument hash, the unchanged state, the cycle, the step limit. */
export function loopSubject(d: LoopDetection): string {
  const e = d.evidence;
  switch (d.kind) {
    case 'repeated_action':
      return `${e.toolName ?? '?'}(${e.argsHash ?? '…'})`;
    case 'no_progress':
      return e.stateHash !== undefined ? `state ${e.stateHash}` : `failed validation ${e.outputHash ?? ''}`.trim();
    case 'ping_pong':
      return e.cycle ? `${e.cycle.join(' ⇄ ')}` : 'two tools alternating';
    case 'runaway':
      return e.stepLimit !== undefined ? `more than ${formatCount(e.stepLimit)} steps` : 'too many steps';
  }
}

export interface LoopRow {
  key: string;
  runId: string;
  href: string;
  agent: string;
  outcome: string;
  kind: LoopKind;
  kindLabel: string;
  subject: string;
  count: number;
  wastedNs: Nanoseconds;
  wastedCostUsd: Usd;
  wastedTimeLabel: string;
  wastedCostLabel: string;
}

/** One row per detection on the page, in the API's order. */
export function prepareLoopRows(report: LoopsReport): LoopRow[] {
  return report.detections.map((d, i) => ({
    key: `${d.runId}:${d.kind}:${i}`,
    runId: d.runId,
    href: runHref(d.runId),
    agent: d.agent,
    outcome: d.runOutcome,
    kind: d.kind,
    kindLabel: LOOP_KIND_LABELS[d.kind],
    subject: loopSubject(d),
    count: d.count,
    wastedNs: d.wastedNs,
    wastedCostUsd: d.wastedCostUsd,
    wastedTimeLabel: formatDuration(d.wastedNs),
    wastedCostLabel: formatUsd(d.wastedCostUsd),
  }));
}

export interface LoopKindRow {
  kind: LoopKind;
  label: string;
  runs: number;
  detections: number;
  wastedTimeLabel: string;
  wastedCostLabel: string;
  wastedCostUsd: Usd;
}

/** Totals per loop kind, kinds with detections first. */
export function prepareLoopKinds(report: LoopsReport): LoopKindRow[] {
  return (Object.keys(LOOP_KIND_LABELS) as LoopKind[])
    .map((kind) => {
      const t = report.byKind[kind];
      return {
        kind,
        label: LOOP_KIND_LABELS[kind],
        runs: t.runsFlagged,
        detections: t.detections,
        wastedTimeLabel: formatDuration(t.wastedNs),
        wastedCostLabel: formatUsd(t.wastedCostUsd),
        wastedCostUsd: t.wastedCostUsd,
      };
    })
    .sort((a, b) => Number(b.detections > 0) - Number(a.detections > 0));
}

export interface LoopCostView {
  loopingRuns: number;
  runs: number;
  loopRate: Fraction;
  /** Time and money spent on the repeats themselves (after the first). */
  repeatNs: Nanoseconds;
  repeatUsd: Usd;
  /** Runs that failed because of a loop (primary cause `loop`). */
  loopFailures: number;
  /** Cost of all failed runs, and of looping runs that did not fail (null: the API does not say). */
  failedRunsUsd: Usd;
  loopingRunsUsd: Usd | null;
  /** Does looping cost money here? */
  costsMoney: boolean;
  headline: string;
  detail: string;
}

/** Whether loops cost money, in one headline: rate, repeats' cost and time, failures they caused. */
export function prepareLoopCost(loops: LoopsReport, cost: CostSummary, failures: FailureBreakdown): LoopCostView {
  const loopFailures = failures.causes.find((c) => c.cause === 'loop')?.runs ?? 0;
  const loopRate = fraction(loops.runs > 0 ? loops.overall.runsFlagged / loops.runs : 0);
  const repeatUsd = usd(loops.overall.wastedCostUsd + (cost.wasted.loopingRunsUsd ?? 0));
  const costsMoney = repeatUsd > 0;
  const headline =
    loops.overall.runsFlagged === 0
      ? 'No loops in this window'
      : costsMoney
        ? `Loops wasted ${formatUsd(repeatUsd)}`
        : `Loops wasted ${formatDuration(loops.overall.wastedNs)} but $0`;
  const parts = [`${formatCount(loops.overall.runsFlagged)} of ${formatCount(loops.runs)} runs looped (${formatPercent(loopRate)})`];
  if (loops.overall.runsFlagged > 0) parts.push(`${formatDuration(loops.overall.wastedNs)} of repeated steps`);
  if (loopFailures > 0) parts.push(`${formatCount(loopFailures)} runs failed in a loop`);
  return {
    loopingRuns: loops.overall.runsFlagged,
    runs: loops.runs,
    loopRate,
    repeatNs: nanoseconds(loops.overall.wastedNs),
    repeatUsd,
    loopFailures,
    failedRunsUsd: cost.wasted.failedRunsUsd,
    loopingRunsUsd: cost.wasted.loopingRunsUsd,
    costsMoney,
    headline,
    detail: parts.join(' · '),
  };
}

export interface RatePoint {
  startMs: number;
  label: string;
  runs: number;
  loopingRuns: number;
  /** null in buckets without runs. */
  rate: number | null;
}

/** Runs, looping runs and the loop rate per bucket. */
export function prepareLoopRate(rate: LoopRate, label: (ms: number) => string): RatePoint[] {
  return rate.points.map((p) => ({ startMs: p.bucketStartMs, label: label(p.bucketStartMs), runs: p.runs, loopingRuns: p.loopingRuns, rate: p.runs > 0 ? p.rate : null }));
}
