import { describe, expect, it } from 'vitest';
import { BodyJoiner, joinBody } from './BodyJoiner.js';

const bytes = (...values: number[]): Uint8Array => Uint8Array.from(values);

describe('joinBody and BodyJoiner', () => {
  it('gives a whole body, or a single piece, as it is', () => {
    const whole = bytes(1, 2, 3);
    expect(joinBody(whole)).toBe(whole);
    expect(joinBody([whole])).toBe(whole);
    expect(new BodyJoiner(1024).join([whole])).toBe(whole);
  });

  it('joins pieces back to back', () => {
    expect([...joinBody([bytes(1, 2), bytes(), bytes(3), bytes(4, 5)])]).toEqual([1, 2, 3, 4, 5]);
    expect([...new BodyJoiner(1024).join([bytes(1, 2), bytes(3)])]).toEqual([1, 2, 3]);
  });

  it('reuses its buffer from one join to the next, and gives a body above its cap a buffer of its own', () => {
    const joiner = new BodyJoiner(8);
    const first = joiner.join([bytes(1, 2), bytes(3, 4)]);
    const second = joiner.join([bytes(9), bytes(8, 7)]);
    expect(second.buffer).toBe(first.buffer);
    expect([...second]).toEqual([9, 8, 7]);
    const large = joiner.join([bytes(1, 2, 3, 4, 5), bytes(6, 7, 8, 9)]);
    expect([...large]).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(large.buffer).not.toBe(first.buffer);
    // the kept buffer never grows past the cap
    expect(joiner.join([bytes(1, 2, 3, 4), bytes(5, 6, 7, 8)]).buffer.byteLength).toBeLessThanOrEqual(8);
  });
});
