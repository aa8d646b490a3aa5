import { describe, expect, it } from 'vitest';
import { compoundingCurveSchema } from '@telltale/api-contract';
import { est, stepJson, summary } from '../testing/analyticsFixtures';
import { fraction } from '../units';
import {
  prepareCurve,
  prepareFixFirst,
  prepareGap,
  prepareStepTable,
  prepareSuccessSeries,
  prepareWhatIf,
  rankByImpact,
} from './prepareReliability';

describe('prepareFixFirst', () => {
  it('names the step whose 99% would raise predicted success most, with the sentence', () => {
    const s = summary([
      stepJson('plan', 0.99, 0.81, 0.81),
      stepJson('retrieve', 0.9, 0.88, 0.81),
      stepJson('draft', 0.95, 0.84, 0.81),
    ]);
    const fix = prepareFixFirst(s);
    expect(fix).toMatchObject({ stepName: 'retrieve', current: 0.9, predictedNow: 0.81, predictedAfter: 0.88 });
    expect(fix?.gain).toBeCloseTo(0.07, 12);
    expect(fix?.gainLabel).toBe('+7.0 pts');
    expect(fix?.sentence).toBe('If retrieve reached 99%, predicted end-to-end success would rise from 81% to 88%.');
  });

  it('is null when no step would gain, or nothing is predicted', () => {
    expect(prepareFixFirst(summary([stepJson('plan', 0.995, 0.81, 0.81)]))).toBeNull();
    expect(prepareFixFirst(summary([]))).toBeNull();
    const noPrediction = summary([stepJson('a', 0.5, null, 0.8)]);
    expect(prepareFixFirst(noPrediction)).toBeNull();
  });
});

describe('rankByImpact and the step table', () => {
  it('sorts by gain, unknown gains last, ties by groups then name', () => {
    const s = summary([
      stepJson('b', 0.9, 0.85, 0.81),
      stepJson('unknown', 0.5, null, 0.81),
      stepJson('a', 0.9, 0.85, 0.81),
      stepJson('big', 0.9, 0.85, 0.81, { groups: 500 }),
      stepJson('top', 0.7, 0.95, 0.81),
    ]);
    expect(rankByImpact(s.steps).map((x) => x.stepName)).toEqual(['top', 'big', 'a', 'b', 'unknown']);
  });

  it('formats rates, recovery, retry cost and a gain bar relative to the largest gain', () => {
    const s = summary([
      stepJson('retrieve', 0.9, 0.89, 0.81),
      stepJson('plan', 1, 0.81, 0.81, { recovery: est(null, null, null, 0), retryExtraNs: 0, retryExtraCostUsd: 0 }),
      stepJson('draft', 0.95, 0.85, 0.81),
    ]);
    const rows = prepareStepTable(s);
    expect(rows.map((r) => r.stepName)).toEqual(['retrieve', 'draft', 'plan']);
    expect(rows[0]).toMatchObject({
      eventualLabel: '90%',
      firstAttemptLabel: '85%',
      recoveryLabel: '50%',
      retryTimeLabel: '2 s',
      retryCostLabel: '$0.25',
      gainLabel: '+8.0 pts',
      gainBar: 1,
    });
    expect(rows[0]?.eventualInterval).toBe('95% 88%–91%');
    expect(rows[1]?.gainBar).toBeCloseTo(0.5, 12);
    expect(rows[2]).toMatchObject({
      recovery: null,
      recoveryLabel: '—',
      retryTimeLabel: '—',
      retryCostLabel: '—',
      gainLabel: '—',
      gainBar: 0,
    });
  });
});

describe('prepareWhatIf', () => {
  it('lists the steps that would gain, best first, at most `limit`', () => {
    const s = summary([
      stepJson('a', 0.9, 0.85, 0.81),
      stepJson('b', 0.8, 0.9, 0.81),
      stepJson('c', 0.99, 0.81, 0.81),
      stepJson('d', 0.97, 0.82, 0.81),
    ]);
    const rows = prepareWhatIf(s, 2);
    expect(rows.map((r) => r.stepName)).toEqual(['b', 'a']);
    expect(rows[0]?.sentence).toBe(
      'If b reached 99% (now 80%), predicted end-to-end success would rise from 81% to 90%.',
    );
    expect(prepareWhatIf(s, 10).map((r) => r.stepName)).toEqual(['b', 'a', 'd']);
  });
});

describe('prepareGap', () => {
  it('reads a significantly negative gap as failures between steps', () => {
    const g = prepareGap(summary([], { observed: 0.7, predicted: 0.83 }));
    expect(g.tone).toBe('bad');
    expect(g.label).toBe('−13.0 pts');
    expect(g.interval).toBe('95% −19.0 pts to −7.0 pts');
  });

  it('is neutral when the interval covers zero, good when clearly positive, and empty without data', () => {
    expect(prepareGap(summary([], { observed: 0.8, predicted: 0.79 })).tone).toBe('neutral');
    expect(prepareGap(summary([], { observed: 0.95, predicted: 0.8 })).tone).toBe('good');
    const empty = summary([]);
    empty.gap = { value: null, low: null, high: null, n: 0 };
    expect(prepareGap(empty)).toMatchObject({ value: null, label: '–' });
  });
});

describe('prepareCurve', () => {
  it('keeps observed, its band and the fitted value per run length', () => {
    const curve = compoundingCurveSchema.parse({
      perGroupSuccess: 0.97,
      points: [
        { groups: 3, runs: 10, observed: est(0.9, 0.6, 0.98, 10), fitted: 0.912673 },
        { groups: 6, runs: 0, observed: est(null, null, null, 0), fitted: 0.83 },
      ],
    });
    expect(prepareCurve(curve)).toEqual([
      { groups: 3, runs: 10, observed: 0.9, band: [0.6, 0.98], fitted: 0.912673 },
      { groups: 6, runs: 0, observed: null, band: null, fitted: 0.83 },
    ]);
  });
});

describe('prepareSuccessSeries', () => {
  it('puts one summary per bucket, with gaps where a bucket has no completed runs or is loading', () => {
    const buckets = [
      { fromMs: 0, toMs: 10 },
      { fromMs: 10, toMs: 20 },
      { fromMs: 20, toMs: 30 },
    ];
    const full = summary([], { observed: 0.8, predicted: 0.75 });
    const empty = summary([], { success: 0, failure: 0 });
    const points = prepareSuccessSeries(buckets, [full, empty, undefined], (ms) => `t${ms}`);
    expect(points[0]).toMatchObject({ startMs: 0, label: 't0', runs: 100, observed: 0.8, predicted: 0.75 });
    expect(points[0]?.observedBand?.[0]).toBeCloseTo(0.75, 12);
    expect(points[0]?.observedBand?.[1]).toBeCloseTo(0.85, 12);
    expect(points[0]?.gap).toBeCloseTo(0.05, 12);
    expect(points[1]).toMatchObject({ runs: 0, observed: null, predicted: null, observedBand: null });
    expect(points[2]).toMatchObject({ label: 't20', runs: 0, observed: null });
    expect(fraction(points[0]?.predictedBand?.[0] ?? 0)).toBeCloseTo(0.71, 12);
  });
});
