import { describe, expect, it } from 'vitest';
import { CliError } from './CliError.js';
import { parseDuration, parseFraction } from './parseDuration.js';

describe('parseDuration', () => {
  it.each([
    ['500ms', 500],
    ['2s', 2000],
    ['1.5s', 1500],
    ['1m', 60_000],
    ['30m', 1_800_000],
    ['2h', 7_200_000],
    ['7d', 604_800_000],
    [' 2h ', 7_200_000],
  ])('%s → %d ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each(['2', '', 'h', '2 h', '-1s', '0s', '1w', '2hours', '1e3ms', '.5s'])(
    'refuses %j with a usage error naming it',
    (text) => {
      let caught: unknown;
      try {
        parseDuration(text, '--since');
      } catch (err) {
        caught = err;
      }
      expect(caught).toBeInstanceOf(CliError);
      expect((caught as CliError).exitCode).toBe(2);
      expect((caught as CliError).message).toContain('--since');
    },
  );
});

describe('parseFraction', () => {
  it('reads fractions and percentages', () => {
    expect(parseFraction('0.95', 'x')).toBe(0.95);
    expect(parseFraction('95%', 'x')).toBeCloseTo(0.95, 12);
    expect(parseFraction('1', 'x')).toBe(1);
    expect(parseFraction('0', 'x')).toBe(0);
  });

  it.each(['1.5', '-0.1', '', '%', 'abc', '101%'])('refuses %j', (text) => {
    expect(() => parseFraction(text, '--min-success')).toThrow(/--min-success/);
  });
});
