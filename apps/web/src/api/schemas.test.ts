import { describe, expect, it } from 'vitest';
import { runSummaryJson, spanJson, T0 } from '../testing/fixtures';
import { runDetailSchema, runsPageSchema } from '@telltale/api-contract';

describe('api schemas', () => {
  it('parses a runs page and converts nanosecond strings and dollars', () => {
    const page = runsPageSchema.parse({
      runs: [runSummaryJson({ durationNs: '2500' })],
      total: 1,
      limit: 50,
      offset: 0,
    });
    const run = page.runs[0]!;
    expect(run.startTimeUnixNano).toBe(T0);
    expect(run.durationNs).toBe(2500);
    expect(run.costUsd).toBe(0.0123);
  });

  it('parses a run detail with spans, events and a null cost', () => {
    const detail = runDetailSchema.parse({
      run: runSummaryJson(),
      spans: [
        spanJson('a', '', 0, 1.5, {
          stepKind: 'tool',
          status: { code: 'error', message: 'timeout' },
          events: [
            { timeUnixNano: (T0 + 5n).toString(), name: 'exception', attributes: { 'exception.type': 'Timeout' } },
          ],
        }),
      ],
    });
    const s = detail.spans[0]!;
    expect(s.durationNs).toBe(1_500_000);
    expect(s.costUsd).toBeNull();
    expect(s.events[0]?.timeUnixNano).toBe(T0 + 5n);
  });

  it('rejects values outside the contract', () => {
    expect(
      runsPageSchema.safeParse({ runs: [runSummaryJson({ outcome: 'maybe' })], total: 1, limit: 50, offset: 0 })
        .success,
    ).toBe(false);
    expect(
      runsPageSchema.safeParse({ runs: [runSummaryJson({ durationNs: 12 })], total: 1, limit: 50, offset: 0 }).success,
    ).toBe(false);
    expect(
      runDetailSchema.safeParse({ run: runSummaryJson(), spans: [spanJson('a', '', 0, 1, { stepKind: 'dance' })] })
        .success,
    ).toBe(false);
  });

  it('ignores fields it does not know', () => {
    const page = runsPageSchema.parse({
      runs: [runSummaryJson({ extra: 1 })],
      total: 1,
      limit: 50,
      offset: 0,
      next: 'x',
    });
    expect(page.runs[0]).not.toHaveProperty('extra');
  });
});
