import type { CostSummary, FailureBreakdown, LoopDetection, LoopRate, LoopsReport } from '@telltale/api-contract';
import { LOOP_KIND_DEFINITIONS, LOOP_KIND_LABELS, LOOP_KINDS, type LoopKind } from '@telltale/semconv';
import { formatCount, formatDuration, formatPercent, formatUsd } from '../format';
import type { Fraction, Nanoseconds, Usd } from '../units';
import { fraction, nanoseconds, usd } from '../units';
import { runHref } from './prepareRunsTable';

/** Labels of the loop kinds: one definition, shared with the server (semconv loopKinds.ts). */
export { LOOP_KIND_LABELS };

type Evidence = LoopDetection['evidence'];

/** Kind-specific subjects; a kind without one reads "<count> <what it counts>" from its definition. */
const SUBJECTS: Partial<Record<LoopKind, (e: Evidence) => string>> = {
  repeated_action: (e) => `${e.toolName ?? '?'}(${e.argsHash ?? '…'})`,
  no_progress: (e) =>
    e.stateHash !== undefined ? `state ${e.stateHash}` : `failed validation ${e.outputHash ?? ''}`.trim(),
  ping_pong: (e) => (e.cycle ? `${e.cycle.join(' ⇄ ')}` : 'two tools alternating'),
  runaway: (e) => (e.stepLimit !== undefined ? `more than ${formatCount(e.stepLimit)} steps` : 'too many steps'),
};

const COUNTS = Object.fromEntries(LOOP_KIND_DEFINITIONS.map((d) => [d.kind, d.count])) as Record<LoopKind, string>;

/** What repeated, in words: the tool and its argument hash, the unchanged state, the cycle, the step limit. */
export function loopSubject(d: LoopDetection): string {
  const subject = SUBJECTS[d.kind];
  return subject === undefined ? `${formatCount(d.count)} ${COUNTS[d.kind]}` : subject(d.evidence);
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
  return LOOP_KINDS.map((kind) => {
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
  }).sort((a, b) => Number(b.detections > 0) - Number(a.detections > 0));
}

export interface LoopCostView {
  loopingRuns: number;
  runs: number;
  loopRate: Fraction;
  /** What every looping run cost, failed or not (null: the server does not say). */
  loopingRunsUsd: Usd | null;
  /** Of the total spend (null when unknown or nothing was spent). */
  spendShare: Fraction | null;
  /** Time and money spent on the repeats themselves (after the first). */
  repeatNs: Nanoseconds;
  repeatUsd: Usd;
  /** Runs that failed in a loop (primary cause `loop`), and what they cost when known. */
  loopFailures: number;
  loopFailuresUsd: Usd | null;
  /** Does looping cost money here? */
  costsMoney: boolean;
  eyebrow: string;
  headline: string;
  detail: string;
}

/**
 * Whether loops cost money, in one headline: what the looping runs cost (and
 * their share of spend), the loop rate, the runs that failed in a loop, and
 * what the repeats alone took.
 */
export function prepareLoopCost(loops: LoopsReport, cost: CostSummary, failures: FailureBreakdown): LoopCostView {
  const loopFailures = failures.causes.find((c) => c.cause === 'loop')?.runs ?? 0;
  const loopRate = fraction(loops.runs > 0 ? loops.overall.runsFlagged / loops.runs : 0);
  const looping = cost.looping;
  const loopingRunsUsd = looping === null ? null : usd(looping.costUsd + looping.failedUsd);
  const spendShare = loopingRunsUsd === null || !(cost.totalUsd > 0) ? null : fraction(loopingRunsUsd / cost.totalUsd);
  const repeatUsd = usd(loops.overall.wastedCostUsd);
  const costsMoney = (loopingRunsUsd ?? 0) > 0 || repeatUsd > 0;
  const none = loops.overall.runsFlagged === 0;
  const headline = none
    ? 'No loops in this window'
    : loopingRunsUsd !== null && loopingRunsUsd > 0
      ? `Looping runs cost ${formatUsd(loopingRunsUsd)}${spendShare === null ? '' : ` (${formatPercent(spendShare)} of spend)`}`
      : costsMoney
        ? `Loop repeats cost ${formatUsd(repeatUsd)}`
        : `Loops cost ${formatDuration(loops.overall.wastedNs)}, but no money`;
  const parts = [
    `${formatCount(loops.overall.runsFlagged)} of ${formatCount(loops.runs)} runs looped (${formatPercent(loopRate)})`,
  ];
  if (loopFailures > 0)
    parts.push(
      `${formatCount(loopFailures)} failed in the loop${looping === null ? '' : ` (${formatUsd(looping.failedUsd)})`}`,
    );
  if (!none) parts.push(`the repeats alone took ${formatDuration(loops.overall.wastedNs)} and ${formatUsd(repeatUsd)}`);
  return {
    loopingRuns: loops.overall.runsFlagged,
    runs: loops.runs,
    loopRate,
    loopingRunsUsd,
    spendShare,
    repeatNs: nanoseconds(loops.overall.wastedNs),
    repeatUsd,
    loopFailures,
    loopFailuresUsd: looping === null ? null : looping.failedUsd,
    costsMoney,
    eyebrow: none ? 'Loops' : costsMoney ? 'Yes, loops cost money' : 'Not in money, but in time',
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
  return rate.points.map((p) => ({
    startMs: p.bucketStartMs,
    label: label(p.bucketStartMs),
    runs: p.runs,
    loopingRuns: p.loopingRuns,
    rate: p.runs > 0 ? p.rate : null,
  }));
}
