import { describe, expect, it } from 'vitest';
import { detectLoops, type LoopStep } from './detectLoops.js';
import { DEFAULT_LOOP_THRESHOLDS, medianSteps, resolveLoopThresholds, runawayLimit } from './LoopThresholds.js';

const T = DEFAULT_LOOP_THRESHOLDS;
const MS = 1_000_000;

let nextId = 1;
/** Steps 10 ms apart from t = 0, 1 ms long, $0 unless set. */
function steps(...defs: Array<Partial<LoopStep> & { kind: string }>): LoopStep[] {
  return defs.map((d, i) => ({
    spanId: (nextId++).toString(16).padStart(16, '0'),
    startNs: BigInt(i) * 10_000_000n,
    name: d.kind,
    argsHash: '',
    stateHash: '',
    outputHash: '',
    ok: true,
    durationNs: MS,
    costUsd: 0,
    ...d,
  }));
}
const tool = (name: string, argsHash: string, extra: Partial<LoopStep> = {}): Partial<LoopStep> & { kind: string } => ({
  kind: 'tool',
  name,
  argsHash,
  ...extra,
});
const summary = (d: ReturnType<typeof detectLoops>): unknown[] =>
  d.map((x) => [x.variant, x.count, x.wastedNs, x.spanIds.length]);

describe('detectLoops', () => {
  it('finds a repeated action and wastes the repeats after the first', () => {
    const run = steps(
      tool('search', 'h', { costUsd: 0.5 }),
      { kind: 'llm' },
      tool('search', 'h', { costUsd: 0.25, durationNs: 2 * MS }),
      tool('fetch', 'h'),
      tool('search', 'h', { costUsd: 0.25, durationNs: 3 * MS }),
    );
    const [d, ...rest] = detectLoops(run, T);
    expect(rest).toEqual([]);
    expect(d).toMatchObject({
      kind: 'repeated_action',
      variant: 'tool_args',
      count: 3,
      wastedNs: 5 * MS,
      wastedCostUsd: 0.5,
      toolName: 'search',
      argsHash: 'h',
    });
    expect(d!.spanIds).toEqual([run[0]!.spanId, run[2]!.spanId, run[4]!.spanId]);
    expect(d!.anchorStartNs).toBe(run[0]!.startNs);
  });

  it('does not flag two repeats, or calls without an args hash', () => {
    expect(detectLoops(steps(tool('search', 'h'), tool('search', 'h'), tool('fetch', 'x')), T)).toEqual([]);
    expect(detectLoops(steps(tool('search', ''), tool('search', ''), tool('search', '')), T)).toEqual([]);
  });

  it('finds no progress by state hash across plan and validate steps', () => {
    const run = steps(
      { kind: 'plan', stateHash: 's' },
      { kind: 'act' },
      { kind: 'validate', stateHash: 's' },
      { kind: 'plan', stateHash: 's' },
      { kind: 'act', stateHash: 's' },
    );
    expect(detectLoops(run, T).map((d) => [d.kind, d.variant, d.count, d.stateHash, d.wastedNs])).toEqual([
      ['no_progress', 'state_hash', 3, 's', 2 * MS],
    ]);
  });

  it('finds consecutive failed validations with one output hash; a success or another hash breaks the streak', () => {
    const streak = steps(
      { kind: 'validate', ok: false, outputHash: 'o' },
      { kind: 'plan' },
      { kind: 'validate', ok: false, outputHash: 'o' },
      { kind: 'validate', ok: false, outputHash: 'o' },
    );
    expect(detectLoops(streak, T).map((d) => [d.variant, d.count, d.outputHash])).toEqual([
      ['failed_validation', 3, 'o'],
    ]);
    const broken = steps(
      { kind: 'validate', ok: false, outputHash: 'o' },
      { kind: 'validate', ok: false, outputHash: 'o' },
      { kind: 'validate', ok: true, outputHash: 'o' },
      { kind: 'validate', ok: false, outputHash: 'o' },
      { kind: 'validate', ok: false, outputHash: 'p' },
      { kind: 'validate', ok: false, outputHash: 'o' },
      { kind: 'validate', ok: false, outputHash: '' },
    );
    expect(detectLoops(broken, T)).toEqual([]);
  });

  it('finds ping-pong of three cycles, not two', () => {
    const run = steps(...['C', 'A', 'B', 'A', 'B', 'A', 'B', 'C'].map((n, i) => tool(n, `x${i}`, { costUsd: 0.1 })));
    const [d, ...rest] = detectLoops(run, T);
    expect(rest).toEqual([]);
    expect(d).toMatchObject({ kind: 'ping_pong', count: 3, cycle: ['A', 'B'], wastedNs: 4 * MS });
    expect(d!.wastedCostUsd).toBeCloseTo(0.4, 12);
    expect(d!.spanIds).toEqual(run.slice(1, 7).map((s) => s.spanId));
    expect(detectLoops(steps(...['A', 'B', 'A', 'B'].map((n, i) => tool(n, `y${i}`))), T)).toEqual([]);
    expect(detectLoops(steps(...['A', 'B', 'A', 'B', 'A'].map((n, i) => tool(n, `z${i}`))), T)).toEqual([]);
    // seven calls are still three cycles; the odd call is wasted too
    expect(
      summary(detectLoops(steps(...['A', 'B', 'A', 'B', 'A', 'B', 'A'].map((n, i) => tool(n, `w${i}`))), T)),
    ).toEqual([['alternation', 3, 5 * MS, 7]]);
    // calls of other kinds between the tools do not matter; A A is not an alternation
    expect(
      summary(
        detectLoops(
          steps(
            tool('A', 'a1'),
            { kind: 'llm' },
            tool('B', 'b1'),
            tool('A', 'a2'),
            { kind: 'llm' },
            tool('B', 'b2'),
            tool('A', 'a3'),
            tool('B', 'b3'),
          ),
          T,
        ),
      ),
    ).toEqual([['alternation', 3, 4 * MS, 6]]);
    expect(detectLoops(steps(...['A', 'A', 'A', 'A', 'A', 'A'].map((n, i) => tool(n, `v${i}`))), T)).toEqual([]);
  });

  it('flags runaway runs beyond max(multiplier × median, cap)', () => {
    const run = steps(...Array.from({ length: 12 }, () => ({ kind: 'act' })));
    const small = { ...T, runawayHardCap: 10 };
    const [d] = detectLoops(run, small, { agentMedianSteps: 2 });
    expect(d).toMatchObject({ kind: 'runaway', count: 12, stepLimit: 10, wastedNs: 2 * MS });
    expect(d!.spanIds).toEqual(run.slice(10).map((s) => s.spanId));
    // a median of 3.5 → limit 10.5: steps beyond the 10th are wasted
    expect(detectLoops(run, { ...small, runawayMultiplier: 3 }, { agentMedianSteps: 3.5 })[0]).toMatchObject({
      stepLimit: 10.5,
      wastedNs: 2 * MS,
    });
    expect(detectLoops(run, small, { agentMedianSteps: 4 })).toEqual([]);
    expect(detectLoops(run.slice(0, 10), small)).toEqual([]);
  });

  it('reports overlapping detections, ordered by rule', () => {
    const run = steps(...['A', 'B', 'A', 'B', 'A', 'B'].map((n) => tool(n, n.toLowerCase())));
    expect(detectLoops(run, T).map((d) => [d.variant, d.toolName ?? d.cycle])).toEqual([
      ['tool_args', 'A'],
      ['tool_args', 'B'],
      ['alternation', ['A', 'B']],
    ]);
  });

  it('gives the same answer in any arrival order, and counts a span sent twice once', () => {
    const run = steps(
      tool('search', 'h'),
      tool('A', 'a'),
      tool('search', 'h'),
      tool('B', 'b'),
      tool('search', 'h'),
      { kind: 'validate', ok: false, outputHash: 'o' },
      { kind: 'validate', ok: false, outputHash: 'o' },
      { kind: 'validate', ok: false, outputHash: 'o' },
    );
    const expected = detectLoops(run, T);
    expect(expected.map((d) => d.variant)).toEqual(['tool_args', 'failed_validation']);
    expect(detectLoops([...run].reverse(), T)).toEqual(expected);
    const twice = [...run, run[0]!, run[2]!];
    expect(detectLoops(twice, T)).toEqual(expected);
    expect(detectLoops(run.slice(0, 3).concat(run[0]!), T)).toEqual([]);
  });
});

describe('loop thresholds', () => {
  it('resolves overrides over the defaults and rejects nonsense', () => {
    expect(resolveLoopThresholds()).toEqual({ repeat: 3, pingPongCycles: 3, runawayMultiplier: 3, runawayHardCap: 50 });
    expect(resolveLoopThresholds({ repeat: 4, runawayHardCap: undefined })).toEqual({
      repeat: 4,
      pingPongCycles: 3,
      runawayMultiplier: 3,
      runawayHardCap: 50,
    });
    expect(() => resolveLoopThresholds({ repeat: 1 })).toThrow(/repeat/);
    expect(() => resolveLoopThresholds({ pingPongCycles: 2.5 })).toThrow(/pingPongCycles/);
    expect(() => resolveLoopThresholds({ runawayMultiplier: -1 })).toThrow(/runawayMultiplier/);
    expect(() => resolveLoopThresholds({ runawayHardCap: 0 })).toThrow(/runawayHardCap/);
  });

  it('takes the upper median and the larger of multiplier × median and cap', () => {
    expect(medianSteps([5, 1, 3])).toBe(3);
    expect(medianSteps([4, 1, 3, 2])).toBe(3);
    expect(medianSteps([])).toBeNaN();
    expect(runawayLimit(T, 20)).toBe(60);
    expect(runawayLimit(T, 10)).toBe(50);
    expect(runawayLimit(T, null)).toBe(50);
  });
});
