import {
  API_KEY_KINDS as CONTRACT_KEY_KINDS,
  FAILURE_CAUSES as CONTRACT_CAUSES,
  LATENCY_GROUP_BYS as CONTRACT_LATENCY_GROUP_BYS,
  LOOP_ORDER_NAMES,
  MAX_SERIES_POINTS as CONTRACT_MAX_POINTS,
  MAX_SPANS_PER_SECOND_LIMIT as CONTRACT_QUOTA_LIMIT,
  PROJECT_ID_PATTERN as CONTRACT_PROJECT_ID,
  SERIES_INTERVALS,
  STEP_KINDS,
} from '@telltale/api-contract';
import { LATENCY_INTERVALS, MAX_SERIES_POINTS } from '@telltale/analytics';
import { API_KEY_KINDS, PROJECT_ID_PATTERN, STEP_KINDS as SEMCONV_STEP_KINDS } from '@telltale/semconv';
import { FAILURE_CAUSES, LATENCY_GROUP_BYS, LOOP_ORDERS, MAX_SPANS_PER_SECOND_LIMIT } from '@telltale/store';
import { describe, expect, it } from 'vitest';

// The contract depends on zod alone, so it spells the API's vocabulary itself;
// these pin it to the server packages that compute with the same values.
describe('the API contract speaks the server packages’ vocabulary', () => {
  it('has the same enums', () => {
    expect(CONTRACT_CAUSES).toEqual(FAILURE_CAUSES);
    expect([...LOOP_ORDER_NAMES].sort()).toEqual(Object.keys(LOOP_ORDERS).sort());
    expect(CONTRACT_LATENCY_GROUP_BYS).toEqual(LATENCY_GROUP_BYS);
    expect([...STEP_KINDS].sort()).toEqual([...SEMCONV_STEP_KINDS].sort());
    expect(CONTRACT_KEY_KINDS).toEqual(API_KEY_KINDS);
  });

  it('has the same limits and patterns', () => {
    expect(SERIES_INTERVALS).toEqual(LATENCY_INTERVALS);
    expect(CONTRACT_MAX_POINTS).toBe(MAX_SERIES_POINTS);
    expect(CONTRACT_QUOTA_LIMIT).toBe(MAX_SPANS_PER_SECOND_LIMIT);
    expect(CONTRACT_PROJECT_ID.source).toBe(PROJECT_ID_PATTERN.source);
  });
});
