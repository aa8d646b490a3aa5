/**
 * How latency percentiles are computed (RELIABILITY-MATH "Latency"): the
 * levels reported, when a digest replaces exact values, and the levels that
 * define a tail-attribution's tail and median band.
 */

/** The reported percentile levels, in the order every quantile array uses. */
export const PERCENTILE_LEVELS = [0.5, 0.9, 0.95, 0.99, 0.999] as const;

/** Groups with more values than this get a digest instead of exact percentiles. */
export const EXACT_PERCENTILE_LIMIT = 1_000_000;

/** Relative accuracy of the DDSketch digest used beyond the exact limit. */
export const DIGEST_RELATIVE_ERROR = 0.01;

/**
 * Tail attribution compares the runs at or above the TAIL_LEVEL run
 * duration with the other runs whose duration lies within MEDIAN_BAND (both
 * ends inclusive; a run in both counts as tail).
 */
export const TAIL_LEVEL = 0.99;
export const MEDIAN_BAND = [0.45, 0.55] as const;
