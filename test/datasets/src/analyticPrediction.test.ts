import { describe, expect, it } from 'vitest';
import type { AgentSpec, StepSpec } from './DatasetSpec.js';
import { analyticPrediction } from './analyticPrediction.js';
import { stepProbabilities } from './stepProbabilities.js';

const leaf = (name: string, p: number, include?: number): StepSpec => ({
  type: 'step',
  name,
  kind: 'act',
  firstAttemptSuccess: p,
  retrySuccess: 0,
  maxAttempts: 1,
  errorTypes: ['E'],
  latency: { medianMs: 1, sigma: 0 },
  ...(include === undefined ? {} : { include }),
});
const agent = (steps: AgentSpec['steps'], extra: Partial<AgentSpec> = {}): AgentSpec => ({
  name: 'a',
  service: 's',
  projectId: 'p',
  weight: 1,
  attemptNumbers: true,
  steps,
  seamFailureRate: 0,
  seamErrorTypes: ['X'],
  fallbackRate: 0,
  incompleteRate: 0,
  proShare: 0,
  ...extra,
});

describe('stepProbabilities', () => {
  it('p = 1 − (1 − f)(1 − r)^(m−1), children folded into every attempt', () => {
    const s: StepSpec = { ...leaf('x', 0.8), retrySuccess: 0.5, maxAttempts: 3 };
    expect(stepProbabilities(s).eventualSuccess).toBeCloseTo(1 - 0.2 * 0.25, 12);
    expect(stepProbabilities(s).recovery).toBeCloseTo(0.75, 12);
    const withChild = { ...s, children: [leaf('c', 0.9)] };
    expect(stepProbabilities(withChild).firstAttemptSuccess).toBeCloseTo(0.72, 12);
    expect(stepProbabilities(withChild).eventualSuccess).toBeCloseTo(1 - 0.28 * (1 - 0.45) ** 2, 12);
  });
});

describe('analyticPrediction', () => {
  it('a fixed sequence: k = 1, P = Π p', () => {
    const r = analyticPrediction(agent([leaf('a', 0.9), leaf('b', 0.8)]))!;
    expect(r.predicted).toBeCloseTo(0.72, 12);
    expect(r.successProbability).toBeCloseTo(0.72, 12);
    expect(r.expectedK.get('b')).toBeCloseTo(1, 12);
  });

  it('an optional step: k = q·p / (1 − q + q·p)', () => {
    const r = analyticPrediction(agent([leaf('a', 0.9), leaf('b', 0.8, 0.5)]))!;
    expect(r.successProbability).toBeCloseTo(0.9 * 0.9, 12);
    expect(r.expectedK.get('b')).toBeCloseTo(0.4 / 0.9, 12);
  });

  it('seams and fallbacks: S = (1 − σ)A + φ(1 − A); a failed group counts in fallback runs', () => {
    const r = analyticPrediction(agent([leaf('a', 0.5), leaf('b', 0.5)], { seamFailureRate: 0.1, fallbackRate: 0.2 }))!;
    const success = 0.9 * 0.25 + 0.2 * 0.75;
    expect(r.successProbability).toBeCloseTo(success, 12);
    // E[groups of b · success]: 0.9·0.25 (all ok) + 0.2·0.5·0.5 (a ok, b fails, fallback)
    expect(r.expectedK.get('b')).toBeCloseTo((0.9 * 0.25 + 0.2 * 0.25) / success, 12);
    expect(r.expectedK.get('a')).toBeCloseTo((0.9 * 0.25 + 0.2 * 0.75) / success, 12);
  });

  it('is undefined for agents with injected loops or failing nested steps', () => {
    expect(analyticPrediction(agent([{ ...leaf('a', 0.9), children: [leaf('c', 0.9)] }]))).toBeUndefined();
    expect(
      analyticPrediction(
        agent([leaf('a', 0.9)], {
          loops: {
            rates: { repeatedAction: 0.1, pingPong: 0, noProgressState: 0, noProgressValidation: 0, runaway: 0 },
            failureRate: 1,
            validateStep: 'a',
          },
        }),
      ),
    ).toBeUndefined();
  });
});
