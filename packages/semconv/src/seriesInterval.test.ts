import { TelltaleErrorCode } from './errors.js';
import { describe, expect, it } from 'vitest';
import { seriesIntervalMs } from './seriesInterval.js';

describe('seriesIntervalMs', () => {
  it('turns whole seconds into ms', () => {
    expect(seriesIntervalMs(1)).toBe(1_000);
    expect(seriesIntervalMs(600)).toBe(600_000);
  });

  it.each([0, -5, 1.5, Number.NaN, Number.POSITIVE_INFINITY])('refuses %s as a bad request naming the option', (s) => {
    expect(() => seriesIntervalMs(s, 'intervalSeconds')).toThrow(
      expect.objectContaining({
        code: TelltaleErrorCode.BAD_REQUEST,
        message: `intervalSeconds must be a whole number of seconds ≥ 1, got ${s}`,
      }) as Error,
    );
  });
});
