import { describe, expect, it } from 'vitest';
import { formatDuration, ProgressReporter } from './ProgressReporter.js';

function fixture(terminal: boolean): {
  now: { ms: number };
  logs: Array<{ fields: Record<string, unknown>; message: string }>;
  drawn: string[];
  reporter: ProgressReporter;
} {
  const now = { ms: 1_000 };
  const logs: Array<{ fields: Record<string, unknown>; message: string }> = [];
  const drawn: string[] = [];
  const reporter = new ProgressReporter({
    label: 'run facts catch-up',
    unit: 'runs',
    clock: () => now.ms,
    log: (fields, message) => logs.push({ fields, message }),
    terminal: terminal ? { write: (t: string) => drawn.push(t) } : undefined,
  });
  return { now, logs, drawn, reporter };
}

describe('ProgressReporter', () => {
  it('logs done/total, rate and time left every 5 s, and once at the end', () => {
    const { now, logs, reporter } = fixture(false);
    reporter.update(0, 10_000);
    now.ms += 2_000;
    reporter.update(2_000, 10_000); // within 5 s of the first line: not logged
    now.ms += 3_000;
    reporter.update(5_000, 10_000);
    now.ms += 1_000;
    reporter.update(6_000, 10_000);
    now.ms += 4_000;
    reporter.update(10_000, 10_000); // 5 s since the last line
    reporter.finish();
    reporter.finish(); // once
    expect(logs.map((l) => l.message)).toEqual([
      'run facts catch-up: 0/10,000 runs (0%)',
      'run facts catch-up: 5,000/10,000 runs (50%), 1,000 runs/s, 5 s left',
      'run facts catch-up: 10,000/10,000 runs (100%), 1,000 runs/s, took 10 s',
      'run facts catch-up: 10,000/10,000 runs (100%), 1,000 runs/s, took 10 s',
    ]);
    expect(logs[1]!.fields).toEqual({
      done: 5_000,
      total: 10_000,
      elapsedMs: 5_000,
      ratePerSecond: 1_000,
      etaMs: 5_000,
    });
    expect(logs[3]!.fields).not.toHaveProperty('etaMs');
  });

  it('redraws one terminal line at most every 200 ms, and ends it with a newline', () => {
    const { now, drawn, logs, reporter } = fixture(true);
    reporter.update(0, 300);
    now.ms += 100;
    reporter.update(10, 300); // too soon
    now.ms += 100;
    reporter.update(20, 300);
    now.ms += 90_000 - 200;
    reporter.update(300, 300); // the last one always
    reporter.finish();
    expect(logs).toEqual([]);
    expect(drawn).toHaveLength(4);
    expect(drawn[1]).toBe('\rrun facts catch-up: 20/300 runs (6%), 100 runs/s, 3 s left\u001b[K');
    expect(drawn[3]).toBe('\rrun facts catch-up: 300/300 runs (100%), 3 runs/s, took 1m 30s\u001b[K\n');
  });

  it('formats durations', () => {
    expect(formatDuration(850)).toBe('850 ms');
    expect(formatDuration(12_400)).toBe('12 s');
    expect(formatDuration(185_000)).toBe('3m 05s');
    expect(formatDuration(3_720_000)).toBe('1h 02m');
  });
});
