import { describe, expect, it } from 'vitest';
import { medianRound } from './ingestRounds.js';

describe('medianRound', () => {
  it('picks the round with the median sustained rate, whatever the order', () => {
    const rounds = [
      { sustainedSpansPerS: 74_000, id: 'a' },
      { sustainedSpansPerS: 48_000, id: 'b' },
      { sustainedSpansPerS: 80_000, id: 'c' },
    ];
    expect(medianRound(rounds).id).toBe('a');
    expect(medianRound([...rounds].reverse()).id).toBe('a');
  });

  it('takes the lower middle round of an even count, and the only round of one', () => {
    expect(
      medianRound([
        { sustainedSpansPerS: 3 },
        { sustainedSpansPerS: 1 },
        { sustainedSpansPerS: 4 },
        { sustainedSpansPerS: 2 },
      ]).sustainedSpansPerS,
    ).toBe(2);
    expect(medianRound([{ sustainedSpansPerS: 9 }]).sustainedSpansPerS).toBe(9);
    expect(() => medianRound([])).toThrow(RangeError);
  });
});
