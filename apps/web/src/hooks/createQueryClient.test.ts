import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/ApiError';
import { shouldRetry } from './createQueryClient';

describe('shouldRetry', () => {
  it('retries network and server errors twice', () => {
    const unavailable = new ApiError({ code: 'UNAVAILABLE', message: 'down', status: 503 });
    expect([0, 1, 2].map((n) => shouldRetry(n, unavailable))).toEqual([true, true, false]);
    expect(shouldRetry(0, new ApiError({ code: 'NETWORK', message: 'x', status: 0 }))).toBe(true);
  });

  it('does not retry client errors or contract violations', () => {
    expect(shouldRetry(0, new ApiError({ code: 'NOT_FOUND', message: 'x', status: 404 }))).toBe(false);
    expect(shouldRetry(0, new ApiError({ code: 'BAD_RESPONSE', message: 'x', status: 200 }))).toBe(false);
  });
});
