import { describe, expect, it } from 'vitest';
import { formatCount, formatDurationNs, formatPercent, formatPoints, formatRange, formatUsd } from './formatValue.js';

describe('formatValue', () => {
  it('formats fractions, points and ranges', () => {
    expect(formatPercent(0.8312)).toBe('83.1%');
    expect(formatPercent(null)).toBe('—');
    expect(formatPoints(-0.0512)).toBe('−5.1 pp');
    expect(formatPoints(0.02)).toBe('+2.0 pp');
    expect(formatRange(0.8, 0.9, (x) => formatPercent(x))).toBe('80.0% – 90.0%');
    expect(formatRange(null, 0.9, (x) => formatPercent(x))).toBe('—');
  });

  it('picks a duration unit with three significant digits', () => {
    expect(formatDurationNs(850_000)).toBe('850 µs');
    expect(formatDurationNs(1_234_567)).toBe('1.23 ms');
    expect(formatDurationNs(2e9)).toBe('2 s');
    expect(formatDurationNs(95.5e9)).toBe('95.5 s');
    expect(formatDurationNs(300e9)).toBe('5 min');
    expect(formatDurationNs(undefined)).toBe('—');
  });

  it('formats money and counts', () => {
    expect(formatUsd(0.012345)).toBe('$0.0123');
    expect(formatUsd(12.5)).toBe('$12.50');
    expect(formatUsd(0)).toBe('$0');
    expect(formatUsd(1234.4)).toBe('$1234');
    expect(formatCount(12345)).toBe('12,345');
  });
});
