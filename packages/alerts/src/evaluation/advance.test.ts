import { describe, expect, it } from 'vitest';
import { advance, initialState, type SeriesState, type Timing, type Verdict } from './advance.js';

const breach: Verdict = { breaching: true, value: 0.5, sample: 20 };
const fine: Verdict = { breaching: false, value: 0.99, sample: 20 };
const unknown: Verdict = { breaching: undefined, value: undefined, sample: 0 };

/** Feeds verdicts at the given seconds and returns states and notifications. */
function replay(timing: Timing, steps: Array<[number, Verdict]>): Array<[string, string | undefined]> {
  let s: SeriesState = initialState(0);
  let n = 0;
  return steps.map(([sec, v]) => {
    const t = advance(s, v, timing, sec * 1000, () => `ep${++n}`);
    s = t.next;
    return [s.state, t.notify];
  });
}

describe('advance (alert state machine)', () => {
  it('fires at once without a for duration and resolves exactly once', () => {
    expect(
      replay({ forSeconds: 0, repeatIntervalSeconds: 0 }, [
        [1, fine],
        [2, breach],
        [3, breach],
        [4, fine],
        [5, fine],
        [6, fine],
      ]),
    ).toEqual([
      ['ok', undefined],
      ['firing', 'firing'],
      ['firing', undefined],
      ['resolved', 'resolved'],
      ['resolved', undefined],
      ['resolved', undefined],
    ]);
  });

  it('waits in pending for the for duration, and a blip back to ok resets it', () => {
    expect(
      replay({ forSeconds: 60, repeatIntervalSeconds: 0 }, [
        [0, breach],
        [30, breach],
        [40, fine],
        [50, breach],
        [100, breach],
        [110, breach],
      ]),
    ).toEqual([
      ['pending', undefined],
      ['pending', undefined],
      ['ok', undefined],
      ['pending', undefined],
      ['pending', undefined],
      ['firing', 'firing'],
    ]);
  });

  it('repeats a firing notification every repeat interval while it breaches', () => {
    expect(
      replay({ forSeconds: 0, repeatIntervalSeconds: 100 }, [
        [0, breach],
        [50, breach],
        [100, breach],
        [150, breach],
        [200, breach],
      ]).map(([, n]) => n),
    ).toEqual(['firing', undefined, 'firing', undefined, 'firing']);
  });

  it('too few samples neither starts, nor resolves, and drops a pending alert', () => {
    expect(
      replay({ forSeconds: 10, repeatIntervalSeconds: 0 }, [
        [0, unknown],
        [1, breach],
        [2, unknown],
        [3, breach],
        [20, breach],
        [30, unknown],
        [40, fine],
      ]),
    ).toEqual([
      ['ok', undefined],
      ['pending', undefined],
      ['ok', undefined],
      ['pending', undefined],
      ['firing', 'firing'],
      ['firing', undefined],
      ['resolved', 'resolved'],
    ]);
  });

  it('numbers notifications per episode and starts a new episode after resolving', () => {
    let s = initialState(0);
    const t = { forSeconds: 0, repeatIntervalSeconds: 10 };
    let n = 0;
    const ep = (): string => `ep${++n}`;
    const seen: Array<[string, number, string]> = [];
    for (const [sec, v] of [
      [0, breach],
      [10, breach],
      [20, fine],
      [30, breach],
    ] as Array<[number, Verdict]>) {
      s = advance(s, v, t, sec * 1000, ep).next;
      seen.push([s.episode, s.notifySeq, s.notifyKind]);
    }
    expect(seen).toEqual([
      ['ep1', 1, 'firing'],
      ['ep1', 2, 'firing'],
      ['ep1', 3, 'resolved'],
      ['ep2', 1, 'firing'],
    ]);
  });
});
