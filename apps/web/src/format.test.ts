import { describe, expect, it } from 'vitest';
import {
  formatCount,
  formatDuration,
  formatIso,
  formatPercent,
  formatPoints,
  formatTimestamp,
  formatTokens,
  formatUsd,
} from './format';
import { fraction, nanoseconds, unixNanos, usd } from './units';

const ns = nanoseconds;

describe('formatDuration', () => {
  it.each([
    [0, '0'],
    [850, '850 ns'],
    [1_000, '1 µs'],
    [12_500, '12.5 µs'],
    [999_700, '1 ms'],
    [4_560_000, '4.56 ms'],
    [120_000_000, '120 ms'],
    [999_999_999, '1 s'],
    [1_234_000_000, '1.23 s'],
    [59_999_000_000, '1m 00s'],
    [125_000_000_000, '2m 05s'],
    [3_720_000_000_000, '1h 02m'],
  ])('%d ns → %s', (value, expected) => {
    expect(formatDuration(ns(value))).toBe(expected);
  });

  it('marks impossible durations', () => {
    expect(formatDuration(ns(-1))).toBe('–');
    expect(formatDuration(ns(Number.NaN))).toBe('–');
  });
});

describe('formatUsd', () => {
  it.each([
    [0, '$0'],
    [0.00004, '<$0.0001'],
    [0.0042, '$0.0042'],
    [0.42, '$0.42'],
    [0.1, '$0.1'],
    [12.345, '$12.35'],
    [1234.5, '$1,235'],
    [-0.5, '-$0.5'],
  ])('%d → %s', (value, expected) => {
    expect(formatUsd(usd(value))).toBe(expected);
  });

  it('shows unknown costs as a dash', () => {
    expect(formatUsd(null)).toBe('–');
  });

  it.each([
    [1.5635889, 5.9, '$1.56'],
    [0.4270764, 5.9, '$0.43'],
    [0.4, 5.9, '$0.40'],
    [0.004, 5.9, '<$0.01'],
    [0, 5.9, '$0'],
    [0.0013304, 0.105, '$0.0013'],
    [0.1, 0.105, '$0.1000'],
    [1234.5, 5000, '$1,235'],
    [0.5, 5000, '<$1'],
    [2345.678, 12, '$2,345.68'],
  ])('%d at the scale of %d → %s', (value, scale, expected) => {
    expect(formatUsd(usd(value), scale)).toBe(expected);
  });
});

describe('formatPoints', () => {
  it.each([
    [0.045, '+4.5 pts'],
    [-0.032, '−3.2 pts'],
    [0.0004, '0 pts'],
    [-0.0004, '0 pts'],
    [0, '0 pts'],
  ])('%d → %s', (value, expected) => {
    expect(formatPoints(value)).toBe(expected);
  });
});

describe('formatPercent / formatCount / formatTokens', () => {
  it('formats ratios as percentages', () => {
    expect(formatPercent(fraction(0.8329))).toBe('83.3%');
    expect(formatPercent(fraction(1))).toBe('100%');
    expect(formatPercent(fraction(0))).toBe('0%');
  });

  it('groups thousands and compacts large token counts', () => {
    expect(formatCount(12345)).toBe('12,345');
    expect(formatTokens(950)).toBe('950');
    expect(formatTokens(9_999)).toBe('9,999');
    expect(formatTokens(12_345)).toBe('12.3k');
    expect(formatTokens(4_500_000)).toBe('4.5M');
  });
});

describe('timestamps', () => {
  const at = unixNanos(1_700_000_000_123_456_789n);

  it('formats in the given time zone', () => {
    expect(formatTimestamp(at, 'UTC')).toBe('2023-11-14 22:13:20');
  });

  it('formats ISO strings at millisecond precision', () => {
    expect(formatIso(at)).toBe('2023-11-14T22:13:20.123Z');
  });
});
