import { MAX_SERIES_POINTS as CONTRACT_MAX_POINTS, SERIES_INTERVALS, STEP_KINDS } from '@telltale/api-contract';
import { LATENCY_INTERVALS, MAX_SERIES_POINTS } from '@telltale/analytics';
import { STEP_KINDS as SEMCONV_STEP_KINDS } from '@telltale/semconv';
import { describe, expect, it } from 'vitest';

// The contract depends on zod and @telltale/semconv alone: the metric
// vocabulary (group-bys, loop orders, failure causes, quota limit, project and
// key patterns) comes from semconv; these pin what it still spells itself to
// the server packages that compute with the same values.
describe('the API contract speaks the server packages’ vocabulary', () => {
  it('has the same enums', () => {
    expect([...STEP_KINDS].sort()).toEqual([...SEMCONV_STEP_KINDS].sort());
  });

  it('has the same limits', () => {
    expect(SERIES_INTERVALS).toEqual(LATENCY_INTERVALS);
    expect(CONTRACT_MAX_POINTS).toBe(MAX_SERIES_POINTS);
  });
});
