import { describe, expect, it } from 'vitest';
import { span, T0 } from '../testing/fixtures';
import { parseNanoseconds, unixNanos } from '../units';
import { prepareWaterfall } from './prepareWaterfall';

/**
 * A run of 100 ms:
 *   root (0–100)
 *     plan (5–15)
 *     act (20–90)
 *       tool search attempt 1 (21–31, error)
 *       tool search attempt 2 (35–45, error)
 *       tool search attempt 3 (50–60, ok)
 *       llm (60–60.0005)   — a 500 ns span
 *   orphan (40–50), parent "missing"
 */
function agentRun() {
  return [
    // Deliberately out of order: the tree order must not depend on input order.
    span('t3', 'act', 50, 10, {
      stepKind: 'tool',
      stepName: 'search',
      attempt: 3,
      toolName: 'web_search',
      status: { code: 'ok', message: '' },
    }),
    span('orphan', 'missing', 40, 10, { name: 'late.span' }),
    span('t1', 'act', 21, 10, {
      stepKind: 'tool',
      stepName: 'search',
      attempt: 1,
      status: { code: 'error', message: 'timeout' },
      errorType: 'Timeout',
    }),
    span('act', 'root', 20, 70, { stepKind: 'act', stepName: 'answer' }),
    span('root', '', 0, 100, { stepKind: 'run', name: 'agent.run' }),
    span('llm', 'act', 60, 0.0005, { stepKind: 'llm', model: 'gpt-4o' }),
    span('t2', 'act', 35, 10, {
      stepKind: 'tool',
      stepName: 'search',
      attempt: 2,
      status: { code: 'error', message: 'rate limited' },
    }),
    span('plan', 'root', 5, 10, { stepKind: 'plan', stepName: 'plan' }),
  ];
}

describe('prepareWaterfall', () => {
  it('orders rows depth-first with siblings by start time, orphans at the top level', () => {
    const { rows } = prepareWaterfall(agentRun());
    expect(rows.map((r) => [r.spanId, r.depth])).toEqual([
      ['root', 0],
      ['plan', 1],
      ['act', 1],
      ['t1', 2],
      ['t2', 2],
      ['t3', 2],
      ['llm', 2],
      ['orphan', 0],
    ]);
    expect(rows.filter((r) => r.isOrphan).map((r) => r.spanId)).toEqual(['orphan']);
    expect(rows.find((r) => r.spanId === 'act')?.childCount).toBe(4);
  });

  it('positions bars as fractions of the run window', () => {
    const waterfall = prepareWaterfall(agentRun());
    expect(waterfall.start).toBe(T0);
    expect(waterfall.total).toBe(100_000_000);
    expect(waterfall.totalLabel).toBe('100 ms');
    const act = waterfall.rows.find((r) => r.spanId === 'act')!;
    expect(act.offsetFraction).toBeCloseTo(0.2, 12);
    expect(act.widthFraction).toBeCloseTo(0.7, 12);
    expect(act.offsetLabel).toBe('+20 ms');
  });

  it('keeps sub-millisecond precision', () => {
    const llm = prepareWaterfall(agentRun()).rows.find((r) => r.spanId === 'llm')!;
    expect(llm.widthFraction).toBeCloseTo(500 / 100_000_000, 15);
    expect(llm.durationLabel).toBe('500 ns');
    expect(llm.detail).toBe('gpt-4o');
  });

  it('keeps nanosecond offsets exact for timestamps beyond 2^53', () => {
    const a = span('a', '', 0, 0);
    const b = {
      ...span('b', '', 0, 0),
      startTimeUnixNano: unixNanos(T0 + 1n),
      endTimeUnixNano: unixNanos(T0 + 3n),
      durationNs: parseNanoseconds('2'),
    };
    const { rows, total } = prepareWaterfall([a, b]);
    expect(total).toBe(3);
    expect(rows[1]?.offsetFraction).toBeCloseTo(1 / 3, 12);
    expect(rows[1]?.widthFraction).toBeCloseTo(2 / 3, 12);
  });

  it('marks attempts of the same step, failed ones included', () => {
    const rows = prepareWaterfall(agentRun()).rows;
    const marks = ['t1', 't2', 't3'].map((id) => rows.find((r) => r.spanId === id)?.attempt);
    expect(marks.map((m) => m?.label)).toEqual(['attempt 1/3', 'attempt 2/3', 'attempt 3/3']);
    expect(marks.map((m) => m?.failed)).toEqual([true, true, false]);
    expect(marks.map((m) => m?.position)).toEqual(['first', 'middle', 'last']);
    expect(new Set(marks.map((m) => m?.groupKey)).size).toBe(1);
    expect(rows.find((r) => r.spanId === 'plan')?.attempt).toBeNull();
  });

  it('counts missing earlier attempts in the total', () => {
    const rows = prepareWaterfall([
      span('p', '', 0, 10),
      span('a2', 'p', 1, 1, { stepName: 'fetch', attempt: 2 }),
      span('a3', 'p', 3, 1, { stepName: 'fetch', attempt: 3 }),
      span('solo', 'p', 5, 1, { stepName: 'other', attempt: 1 }),
    ]).rows;
    expect(rows.find((r) => r.spanId === 'a2')?.attempt?.label).toBe('attempt 2/3');
    expect(rows.find((r) => r.spanId === 'solo')?.attempt).toBeNull();
  });

  it('starts a new group at every first attempt: a step run again after a success is no retry', () => {
    const rows = prepareWaterfall([
      span('p', '', 0, 100),
      ...[0, 1, 2].map((i) =>
        span(`plan${i}`, 'p', i * 30, 10, {
          stepKind: 'plan',
          stepName: 'plan-next-action',
          attempt: 1,
          status: { code: 'ok', message: '' },
        }),
      ),
      ...[0, 1, 2].map((i) =>
        span(`check${i}`, 'p', i * 30 + 15, 5, {
          stepKind: 'validate',
          stepName: 'is-resolved',
          attempt: 1,
          status: { code: 'error', message: 'not yet' },
        }),
      ),
      // fetch retried once, then run again and retried once more: two groups
      ...(['f1', 'f2', 'f1b', 'f2b'] as const).map((id, i) =>
        span(id, 'p', 90 + 2 * i, 1, {
          stepKind: 'tool',
          stepName: 'fetch',
          attempt: (i % 2) + 1,
          status: i % 2 === 0 ? { code: 'error', message: '' } : { code: 'ok', message: '' },
        }),
      ),
    ]).rows;
    const mark = (id: string) => rows.find((r) => r.spanId === id)?.attempt;
    for (const id of ['plan0', 'plan1', 'plan2', 'check0', 'check1', 'check2']) expect(mark(id)).toBeNull();
    expect(['f1', 'f2', 'f1b', 'f2b'].map((id) => mark(id)?.label)).toEqual([
      'attempt 1/2',
      'attempt 2/2',
      'attempt 1/2',
      'attempt 2/2',
    ]);
    expect(['f1', 'f2', 'f1b', 'f2b'].map((id) => mark(id)?.groupKey)).toEqual(['f1', 'f1', 'f1b', 'f1b']);
  });

  it('marks a step span without an attempt number as a retry only right after a failure of the same step', () => {
    const tool = (id: string, start: number, name: string, failed: boolean) =>
      span(id, 'p', start, 1, {
        stepKind: 'tool',
        stepName: name,
        status: failed ? { code: 'error', message: 'boom' } : { code: 'ok', message: '' },
      });
    const rows = prepareWaterfall([
      span('p', '', 0, 100),
      tool('s1', 10, 'search', true),
      tool('s2', 20, 'search', true),
      tool('s3', 30, 'search', false),
      tool('s4', 40, 'search', false), // after a success: a new group
      tool('s5', 50, 'search', true),
      tool('r1', 60, 'read', false), // another step in between ends the group
      tool('s6', 70, 'search', false),
    ]).rows;
    const mark = (id: string) => rows.find((r) => r.spanId === id)?.attempt;
    expect(['s1', 's2', 's3'].map((id) => mark(id)?.label)).toEqual(['attempt 1/3', 'attempt 2/3', 'attempt 3/3']);
    expect(['s1', 's2', 's3'].map((id) => mark(id)?.failed)).toEqual([true, true, false]);
    for (const id of ['s4', 's5', 'r1', 's6']) expect(mark(id)).toBeNull();
  });

  it('keeps a retry after its attempt when both start in the same millisecond', () => {
    // the retry was quicker, so by the ends alone it would come first
    const rows = prepareWaterfall([
      span('p', '', 0, 10),
      span('r2', 'p', 1, 0.2, { stepKind: 'tool', stepName: 'fetch', attempt: 2 }),
      span('r1', 'p', 1, 0.5, {
        stepKind: 'tool',
        stepName: 'fetch',
        attempt: 1,
        status: { code: 'error', message: '' },
      }),
    ]).rows;
    expect(rows.map((r) => [r.spanId, r.attempt?.label ?? null])).toEqual([
      ['p', null],
      ['r1', 'attempt 1/2'],
      ['r2', 'attempt 2/2'],
    ]);
  });

  it('does not group attempts of same-named steps under different parents', () => {
    const rows = prepareWaterfall([
      span('p1', '', 0, 10),
      span('p2', '', 10, 10),
      span('x1', 'p1', 1, 1, { stepName: 'fetch', attempt: 1 }),
      span('x2', 'p2', 11, 1, { stepName: 'fetch', attempt: 1 }),
    ]).rows;
    expect(rows.every((r) => r.attempt === null)).toBe(true);
  });

  it('highlights errors with the most specific label', () => {
    const waterfall = prepareWaterfall(agentRun());
    const byId = new Map(waterfall.rows.map((r) => [r.spanId, r]));
    expect(byId.get('t1')?.errorLabel).toBe('Timeout');
    expect(byId.get('t2')?.errorLabel).toBe('rate limited');
    expect(byId.get('t3')?.isError).toBe(false);
    expect(waterfall.errorCount).toBe(2);
  });

  it('lists the step kinds present in canonical order, with colours', () => {
    const legend = prepareWaterfall(agentRun()).legend;
    expect(legend.map((l) => l.stepKind)).toEqual(['', 'run', 'plan', 'act', 'tool', 'llm']);
    expect(legend.every((l) => /^#[0-9a-f]{6}$/.test(l.color))).toBe(true);
  });

  it('stretches the axis to the run window when the run outlasts its spans', () => {
    const waterfall = prepareWaterfall([span('a', '', 10, 10)], {
      runStart: unixNanos(T0),
      runDuration: parseNanoseconds('40000000'),
    });
    expect(waterfall.total).toBe(40_000_000);
    expect(waterfall.rows[0]?.offsetFraction).toBeCloseTo(0.25, 12);
    expect(waterfall.rows[0]?.widthFraction).toBeCloseTo(0.25, 12);
    expect(waterfall.ticks.map((t) => t.label)).toEqual(['0', '10 ms', '20 ms', '30 ms', '40 ms']);
  });

  it('survives parent cycles, self-parents, duplicate ids and clock skew', () => {
    const skewed = { ...span('skew', 'a', 5, 0), endTimeUnixNano: unixNanos(T0) }; // ends before it starts
    const waterfall = prepareWaterfall([
      span('a', 'b', 0, 10),
      span('b', 'a', 1, 5),
      span('self', 'self', 2, 1),
      span('a', '', 50, 50), // duplicate id: first one wins
      skewed,
    ]);
    expect(waterfall.rows.map((r) => r.spanId).sort()).toEqual(['a', 'b', 'self', 'skew']);
    expect(waterfall.rows.find((r) => r.spanId === 'a')?.isOrphan).toBe(true);
    expect(waterfall.rows.find((r) => r.spanId === 'self')?.isOrphan).toBe(true);
    expect(waterfall.rows.find((r) => r.spanId === 'skew')?.widthFraction).toBe(0);
    for (const r of waterfall.rows) expect(r.offsetFraction + r.widthFraction).toBeLessThanOrEqual(1);
  });

  it('handles an empty run and zero-length spans', () => {
    expect(prepareWaterfall([]).rows).toEqual([]);
    const { rows, total } = prepareWaterfall([span('a', '', 0, 0)]);
    expect(total).toBe(0);
    expect(rows[0]).toMatchObject({ offsetFraction: 0, widthFraction: 0, durationLabel: '0' });
  });
});

describe('prepareWaterfall labels', () => {
  it('places the duration label after, before or inside the bar', () => {
    const rows = prepareWaterfall([
      span('root', '', 0, 100),
      span('early', 'root', 0, 10),
      span('late', 'root', 80, 20),
    ]).rows;
    expect(rows.map((r) => [r.spanId, r.labelPlacement])).toEqual([
      ['root', 'inside'],
      ['early', 'after'],
      ['late', 'before'],
    ]);
  });
});

describe('prepareWaterfall row detail', () => {
  it('adds only what the row name does not already say', () => {
    const rows = prepareWaterfall([
      span('a', '', 0, 1, { stepName: 'search', toolName: 'web_search', name: 'tool web_search' }),
      span('b', '', 1, 1, { stepName: 'invoice.fetch', toolName: 'invoice.fetch', name: 'tool invoice.fetch' }),
      span('c', '', 2, 1, { stepName: 'plan.llm', model: 'gpt-4o', name: 'chat gpt-4o' }),
      span('d', '', 3, 1, { stepName: 'compose', name: 'openai.chat' }),
    ]).rows;
    expect(rows.map((r) => [r.name, r.detail])).toEqual([
      ['search', 'tool web_search'],
      ['invoice.fetch', ''],
      ['plan.llm', 'gpt-4o'],
      ['compose', 'openai.chat'],
    ]);
  });
});
