import type { CompoundingCurve, Estimate, ReliabilitySummary, StepReliability } from '@telltale/api-contract';
import { formatDuration, formatMaybePercent, formatPercent, formatPoints, formatUsd } from '../format';
import type { Fraction } from '../units';
import { fraction } from '../units';

/** The what-if target the API ranks steps by (its default). */
export const WHAT_IF_TARGET = fraction(0.99);

export interface FixFirst {
  stepName: string;
  stepKind: string;
  /** The step's eventual success p(s) today. */
  current: Fraction;
  target: Fraction;
  /** Predicted end-to-end success now, and with the step at the target. */
  predictedNow: Fraction;
  predictedAfter: Fraction;
  gain: number;
  gainLabel: string;
  sentence: string;
}

/**
 * The weakest link: the step whose p(s) raised to the target gains the most
 * predicted end-to-end success (RELIABILITY-MATH "what-if"); null when no step
 * would gain anything.
 */
export function prepareFixFirst(summary: ReliabilitySummary, target: Fraction = WHAT_IF_TARGET): FixFirst | null {
  const best = rankByImpact(summary.steps)[0];
  const predictedNow = summary.predicted.value;
  if (
    best === undefined ||
    best.whatIfGain === null ||
    !(best.whatIfGain > 0) ||
    best.whatIfPredicted === null ||
    predictedNow === null
  )
    return null;
  const predictedAfter = best.whatIfPredicted;
  return {
    stepName: best.stepName,
    stepKind: best.stepKind,
    current: best.eventualSuccess.value ?? fraction(0),
    target,
    predictedNow,
    predictedAfter,
    gain: best.whatIfGain,
    gainLabel: formatPoints(best.whatIfGain),
    sentence: `If ${best.stepName} reached ${formatPercent(target, 0)}, predicted end-to-end success would rise from ${formatPercent(predictedNow, 0)} to ${formatPercent(predictedAfter, 0)}.`,
  };
}

/** Steps by what-if gain, largest first (unknown gains last); ties by more groups, then name. */
export function rankByImpact(steps: readonly StepReliability[]): StepReliability[] {
  const gain = (s: StepReliability): number => s.whatIfGain ?? -Infinity;
  return [...steps].sort((a, b) => gain(b) - gain(a) || b.groups - a.groups || a.stepName.localeCompare(b.stepName));
}

export interface StepRow {
  stepName: string;
  stepKind: string;
  groups: number;
  attempts: number;
  firstAttempt: Fraction | null;
  eventual: Fraction | null;
  /** null when no group failed first (nothing to recover). */
  recovery: Fraction | null;
  gain: number | null;
  firstAttemptLabel: string;
  eventualLabel: string;
  eventualInterval: string;
  recoveryLabel: string;
  retryTimeLabel: string;
  retryCostLabel: string;
  gainLabel: string;
  /** Width of the impact bar, relative to the largest gain (0–1). */
  gainBar: number;
}

/** `95% 80.1%–84.2%`, or empty without data. */
export const intervalLabel = (e: Estimate): string =>
  e.low === null || e.high === null ? '' : `95% ${formatPercent(e.low)}–${formatPercent(e.high)}`;

/** The step table, sorted by impact (what-if gain). */
export function prepareStepTable(summary: ReliabilitySummary): StepRow[] {
  const ranked = rankByImpact(summary.steps);
  const maxGain = Math.max(0, ...ranked.map((s) => s.whatIfGain ?? 0));
  return ranked.map((s) => ({
    stepName: s.stepName,
    stepKind: s.stepKind,
    groups: s.groups,
    attempts: s.attempts,
    firstAttempt: s.firstAttemptSuccess.value,
    eventual: s.eventualSuccess.value,
    recovery: s.recovery.n > 0 ? s.recovery.value : null,
    gain: s.whatIfGain,
    firstAttemptLabel: formatMaybePercent(s.firstAttemptSuccess.value),
    eventualLabel: formatMaybePercent(s.eventualSuccess.value),
    eventualInterval: intervalLabel(s.eventualSuccess),
    recoveryLabel: s.recovery.n > 0 ? formatMaybePercent(s.recovery.value) : '—',
    retryTimeLabel: s.retryExtraNs > 0 ? formatDuration(s.retryExtraNs) : '—',
    retryCostLabel: s.retryExtraCostUsd > 0 ? formatUsd(s.retryExtraCostUsd) : '—',
    gainLabel: s.whatIfGain !== null && s.whatIfGain > 0 ? formatPoints(s.whatIfGain) : '—',
    gainBar: maxGain > 0 ? Math.max(0, s.whatIfGain ?? 0) / maxGain : 0,
  }));
}

export interface WhatIfRow {
  stepName: string;
  gain: number;
  predictedAfter: Fraction;
  sentence: string;
}

/** The `limit` steps whose improvement would help most, each as a sentence. */
export function prepareWhatIf(summary: ReliabilitySummary, limit = 5, target: Fraction = WHAT_IF_TARGET): WhatIfRow[] {
  const now = summary.predicted.value;
  const rows: WhatIfRow[] = [];
  for (const s of rankByImpact(summary.steps)) {
    if (rows.length >= limit || now === null) break;
    if (s.whatIfGain === null || !(s.whatIfGain > 0) || s.whatIfPredicted === null) continue;
    rows.push({
      stepName: s.stepName,
      gain: s.whatIfGain,
      predictedAfter: s.whatIfPredicted,
      sentence: `If ${s.stepName} reached ${formatPercent(target, 0)} (now ${formatMaybePercent(s.eventualSuccess.value)}), predicted end-to-end success would rise from ${formatPercent(now)} to ${formatPercent(s.whatIfPredicted)}.`,
    });
  }
  return rows;
}

export interface CurvePoint {
  groups: number;
  runs: number;
  observed: number | null;
  /** [low, high] of the observed rate's interval, for a band. */
  band: [number, number] | null;
  fitted: number;
}

/** Observed success per number of attempt groups, with the fitted p̄^n (fractions 0–1). */
export function prepareCurve(curve: CompoundingCurve): CurvePoint[] {
  return curve.points.map((p) => ({
    groups: p.groups,
    runs: p.runs,
    observed: p.observed.value,
    band: p.observed.low === null || p.observed.high === null ? null : [p.observed.low, p.observed.high],
    fitted: p.fitted,
  }));
}

export interface SuccessPoint {
  startMs: number;
  label: string;
  runs: number;
  /** null in buckets without completed runs (a gap in the line). */
  observed: number | null;
  observedBand: [number, number] | null;
  predicted: number | null;
  predictedBand: [number, number] | null;
  gap: number | null;
}

/**
 * Observed vs predicted success per time bucket, from one reliability summary
 * per bucket (`summaries[i]` for `buckets[i]`; undefined while loading).
 */
export function prepareSuccessSeries(
  buckets: readonly { fromMs: number; toMs: number }[],
  summaries: readonly (ReliabilitySummary | undefined)[],
  label: (ms: number) => string,
): SuccessPoint[] {
  return buckets.map((bucket, i) => {
    const s = summaries[i];
    const completed = s === undefined ? 0 : s.runs.success + s.runs.failure;
    const band = (e: Estimate | undefined): [number, number] | null =>
      e === undefined || e.low === null || e.high === null ? null : [e.low, e.high];
    return {
      startMs: bucket.fromMs,
      label: label(bucket.fromMs),
      runs: s === undefined ? 0 : completed + s.runs.incomplete,
      observed: completed > 0 ? (s?.observed.value ?? null) : null,
      observedBand: completed > 0 ? band(s?.observed) : null,
      predicted: completed > 0 ? (s?.predicted.value ?? null) : null,
      predictedBand: completed > 0 ? band(s?.predicted) : null,
      gap: completed > 0 ? (s?.gap.value ?? null) : null,
    };
  });
}

export interface GapView {
  value: number | null;
  label: string;
  interval: string;
  /** What the sign means, in words. */
  meaning: string;
  tone: 'bad' | 'good' | 'neutral';
}

/** The coordination gap O − P with its reading. */
export function prepareGap(summary: ReliabilitySummary): GapView {
  const g = summary.gap;
  if (g.value === null || g.low === null || g.high === null) {
    return { value: null, label: '–', interval: '', meaning: 'No completed runs to compare.', tone: 'neutral' };
  }
  const significant = g.low > 0 || g.high < 0;
  return {
    value: g.value,
    label: formatPoints(g.value),
    interval: `95% ${formatPoints(g.low)} to ${formatPoints(g.high)}`,
    meaning: !significant
      ? 'Runs succeed about as often as their steps predict.'
      : g.value < 0
        ? 'Runs fail beyond what the steps explain: handoffs, missing steps, loops, lost state.'
        : 'Retries and fallbacks recover more than independent steps would.',
    tone: !significant ? 'neutral' : g.value < 0 ? 'bad' : 'good',
  };
}
