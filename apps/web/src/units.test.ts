import { describe, expect, it } from 'vitest';
import {
  addNanos,
  nanosBetween,
  nanosToMillis,
  parseNanoseconds,
  parseUnixNanos,
  unixNanosToEpochMillis,
} from './units';

describe('units', () => {
  it('keeps full nanosecond precision for absolute timestamps', () => {
    const a = parseUnixNanos('1700000000000000001');
    const b = parseUnixNanos('1700000000000000251');
    expect(nanosBetween(a, b)).toBe(250);
  });

  it('never returns a negative span of time', () => {
    expect(nanosBetween(parseUnixNanos('10'), parseUnixNanos('5'))).toBe(0);
  });

  it('converts between units', () => {
    expect(parseNanoseconds('1500000')).toBe(1_500_000);
    expect(nanosToMillis(parseNanoseconds('1500000'))).toBe(1.5);
    expect(unixNanosToEpochMillis(parseUnixNanos('1700000000123456789'))).toBe(1_700_000_000_123);
    expect(addNanos(parseUnixNanos('100'), parseNanoseconds('23'))).toBe(123n);
  });
});
