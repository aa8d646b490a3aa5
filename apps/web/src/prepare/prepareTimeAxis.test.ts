import { describe, expect, it } from 'vitest';
import { nanoseconds } from '../units';
import { niceStep, prepareTimeAxis } from './prepareTimeAxis';

describe('prepareTimeAxis', () => {
  it('picks 1/2/5 steps', () => {
    expect(niceStep(nanoseconds(100_000_000), 5)).toBe(20_000_000);
    expect(niceStep(nanoseconds(1_500), 5)).toBe(500);
    expect(niceStep(nanoseconds(7_000_000_000), 5)).toBe(2_000_000_000);
  });

  it('places ticks from zero to the end, labelled in readable units', () => {
    const ticks = prepareTimeAxis(nanoseconds(1_000_000));
    expect(ticks.map((t) => t.label)).toEqual(['0', '200 µs', '400 µs', '600 µs', '800 µs', '1 ms']);
    expect(ticks.map((t) => t.fraction)).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
  });

  it('never places a tick beyond the axis', () => {
    const ticks = prepareTimeAxis(nanoseconds(1_234_567));
    expect(ticks.map((t) => t.offset)).toEqual([0, 500_000, 1_000_000]);
    expect(ticks.every((t) => t.fraction <= 1)).toBe(true);
  });

  it('gives a single tick for an empty axis', () => {
    expect(prepareTimeAxis(nanoseconds(0))).toHaveLength(1);
  });
});
