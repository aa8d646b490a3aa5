import { describe, expect, it } from 'vitest';
import { firstDifference } from './firstDifference.js';

describe('firstDifference', () => {
  it('agrees on equal values, float noise, NaN and key order', () => {
    expect(firstDifference({ a: [1, 0.1 + 0.2, NaN], b: 'x' }, { b: 'x', a: [1, 0.3, NaN] }, 'v')).toBeUndefined();
  });

  it('names the first place two values differ', () => {
    expect(firstDifference({ a: [1, 2] }, { a: [1, 3] }, 'v')).toBe('v.a[1]: 2 vs 3');
    expect(firstDifference([1], [1, 2], 'v')).toBe('v: length 1 vs 2');
    expect(firstDifference({ a: 1 }, { b: 1 }, 'v')).toBe('v: keys ["a"] vs ["b"]');
    expect(firstDifference(NaN, 1, 'v')).toBe('v: NaN vs 1');
    expect(firstDifference('x', 'y', 'v')).toBe('v: x vs y');
    expect(firstDifference(null, {}, 'v')).toBe('v: null is not an object');
  });
});
