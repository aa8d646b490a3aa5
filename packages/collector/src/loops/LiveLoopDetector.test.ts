import { StepKind } from '@telltale/semconv';
import { describe, expect, it } from 'vitest';
import { LiveLoopDetector, type LiveLoopEvent } from './LiveLoopDetector.js';
import { hashKey, loopSignalsOf, loopStepAt, loopStepCount, type LoopSignals } from './loopSignals.js';

/** A span as loopSignalsOf reads it. */
type Span = Parameters<typeof loopSignalsOf>[1][number];
const KIND_NAME = { 1: StepKind.tool, 2: StepKind.plan, 3: StepKind.validate } as const;

let spanSeq = 0;
function step(
  runId: string,
  startMs: number,
  fields: {
    kind: 1 | 2 | 3;
    failed?: boolean;
    tool?: string;
    argsHash?: string;
    stateHash?: string;
    outputHash?: string;
    spanId?: string;
    startNs?: bigint;
  },
): Span {
  return {
    runId,
    serviceName: 'svc',
    stepKind: KIND_NAME[fields.kind],
    startTimeUnixNano: fields.startNs ?? BigInt(startMs) * 1_000_000n,
    spanId: fields.spanId ?? (++spanSeq).toString(16).padStart(16, '0'),
    statusCode: fields.failed === true ? 2 : 1,
    toolName: fields.tool ?? '',
    stepName: '',
    toolArgsHash: fields.argsHash ?? '',
    stateHash: fields.stateHash ?? '',
    outputHash: fields.outputHash ?? '',
  };
}
const tool = (runId: string, at: number, name: string, args = 'same-args'): Span =>
  step(runId, at, { kind: 1, tool: name, argsHash: args });
/** The signals of a request holding `steps`, and the run spans of `endedRuns`. */
const signals = (steps: Span[], endedRuns: string[] = []): LoopSignals =>
  loopSignalsOf('p', [
    ...steps,
    ...endedRuns.map((runId) => ({ ...step(runId, 0, { kind: 1 }), stepKind: StepKind.run, toolArgsHash: '' })),
  ]);

function detector(opts: { maxRuns?: number; idleMs?: number; now?: () => number } = {}): {
  d: LiveLoopDetector;
  events: LiveLoopEvent[];
} {
  const events: LiveLoopEvent[] = [];
  return { d: new LiveLoopDetector({ onEvent: (e) => events.push(e), ...opts }), events };
}

describe('LiveLoopDetector', () => {
  it('fires once on the third identical tool call, and resolves once when the run ends', () => {
    const { d, events } = detector();
    d.observe(signals([tool('r', 1, 'search'), tool('r', 2, 'search')]));
    expect(events).toEqual([]);
    d.observe(signals([tool('r', 3, 'search')]));
    expect(events).toMatchObject([
      {
        projectId: 'p',
        runId: 'r',
        status: 'firing',
        kind: 'repeated_action',
        count: 3,
        labels: { runId: 'r', tool: 'search', service: 'svc', loopKind: 'repeated_action' },
      },
    ]);
    d.observe(signals([tool('r', 4, 'search'), tool('r', 5, 'search')]));
    expect(events).toHaveLength(1);
    d.observe(signals([], ['r']));
    expect(events.map((e) => e.status)).toEqual(['firing', 'resolved']);
    expect(d.size).toBe(0);
  });

  it('does not count different arguments, a span sent twice, or another project', () => {
    const { d, events } = detector();
    const a = tool('r', 1, 'search');
    d.observe(signals([a, tool('r', 2, 'search', 'other-args'), a]));
    d.observe({ ...signals([tool('r', 3, 'search')]), projectId: 'q' });
    d.observe(signals([tool('r', 4, 'search', 'third-args')]));
    expect(events).toEqual([]);
  });

  it('no progress: the same state hash on three plan or validate steps', () => {
    const { d, events } = detector();
    d.observe(
      signals([
        step('r', 1, { kind: 2, stateHash: 's1' }),
        step('r', 2, { kind: 3, stateHash: 's1' }),
        step('r', 3, { kind: 2, stateHash: 's2' }),
      ]),
    );
    expect(events).toEqual([]);
    d.observe(signals([step('r', 4, { kind: 2, stateHash: 's1' })]));
    expect(events).toMatchObject([{ kind: 'no_progress', count: 3 }]);
  });

  it('no progress: three failed validations in a row with one output hash, counted in start order', () => {
    const { d, events } = detector();
    const failed = (at: number, hash = 'o'): Span => step('r', at, { kind: 3, failed: true, outputHash: hash });
    // a passing validation between them breaks the streak
    d.observe(signals([failed(1), failed(2), step('r', 3, { kind: 3 }), failed(4), failed(5, 'x')]));
    expect(events).toEqual([]);
    // arrives late but started at 6: 4, 5(x), 6 is no streak of three; 7 and 8 make one
    d.observe(signals([failed(8), failed(6)]));
    expect(events).toEqual([]);
    d.observe(signals([failed(7)]));
    expect(events).toMatchObject([{ kind: 'no_progress', count: 3 }]);
  });

  it('ping-pong: three A→B cycles, in start order whatever the arrival order', () => {
    const { d, events } = detector();
    const names = ['a', 'b', 'a', 'b', 'a'];
    d.observe(signals(names.map((n, i) => tool('r', 10 * (i + 1), n, `args-${i}`))));
    expect(events).toEqual([]);
    // a call that started before the others breaks nothing; the sixth call completes the third cycle
    d.observe(signals([tool('r', 60, 'b', 'args-5'), tool('r', 1, 'c', 'args-c')]));
    expect(events).toMatchObject([{ kind: 'ping_pong', count: 3, labels: { tool: 'a↔b' } }]);
  });

  it('an interrupted alternation is not a ping-pong', () => {
    const { d, events } = detector();
    d.observe(signals(['a', 'b', 'a', 'c', 'a', 'b', 'a'].map((n, i) => tool('r', i + 1, n, `args-${i}`))));
    expect(events).toEqual([]);
  });

  it('keeps at most maxRuns runs: the least recently active one is forgotten, with its resolved event', () => {
    const { d, events } = detector({ maxRuns: 2 });
    d.observe(signals([tool('r', 1, 't'), tool('r', 2, 't'), tool('r', 3, 't')]));
    d.observe(signals([tool('s', 1, 't')]));
    d.observe(signals([tool('s', 2, 't')])); // s is now the most recent
    d.observe(signals([tool('u', 1, 't')]));
    expect(d.size).toBe(2);
    expect(events.map((e) => `${e.runId}:${e.status}`)).toEqual(['r:firing', 'r:resolved']);
  });

  it('forgets idle runs on sweep', () => {
    let now = 0;
    const { d, events } = detector({ idleMs: 1_000, now: () => now });
    d.observe(signals([tool('r', 1, 't'), tool('r', 2, 't'), tool('r', 3, 't')]));
    now = 500;
    d.observe(signals([tool('s', 1, 't')]));
    now = 1_200;
    d.sweep();
    expect(d.size).toBe(1);
    expect(events.map((e) => `${e.runId}:${e.status}`)).toEqual(['r:firing', 'r:resolved']);
  });

  it('orders steps with one start by the span id read as a number, and tells starts 1 ns apart', () => {
    const { d, events } = detector();
    const at = BigInt(Date.now()) * 1_000_000n; // past 2^53: a double would round it
    // the same start: ordered by span id, as the stored detection does: b, a, b, a, b (arriving b, b, b, a, a)
    const ids = ['000000000000000a', '00000000000000b0', '0000000000000c00', '000000000000d000', '00000000000e0000'];
    const byId = ['b', 'a', 'b', 'a', 'b'];
    d.observe(
      signals(
        [2, 0, 4, 1, 3].map((k) =>
          step('r', 0, { kind: 1, tool: byId[k], argsHash: `x${k}`, spanId: ids[k], startNs: at }),
        ),
      ),
    );
    expect(events).toEqual([]);
    d.observe(signals([step('r', 0, { kind: 1, tool: 'a', argsHash: 'x9', spanId: 'ffffffffffffffff', startNs: at })]));
    expect(events).toMatchObject([{ kind: 'ping_pong', count: 3 }]);
    // the same id one nanosecond later is another step, at the same nanosecond a repeat
    const { d: d2, events: e2 } = detector();
    const s1 = step('s', 0, { kind: 1, tool: 't', argsHash: 'h', spanId: '1', startNs: at });
    d2.observe(signals([s1, s1, { ...s1, startTimeUnixNano: at + 1n }]));
    expect(e2).toEqual([]);
    d2.observe(signals([{ ...s1, startTimeUnixNano: at + 2n }]));
    expect(e2).toMatchObject([{ kind: 'repeated_action', count: 3 }]);
  });
});

describe('loopSignalsOf', () => {
  it('keeps what detection needs of each tool, plan and validate span, exactly', () => {
    const startNs = 1_790_000_000_123_456_789n;
    const signals = loopSignalsOf('p', [
      step('r', 0, { kind: 1, tool: 'search', argsHash: 'a1', spanId: '0123456789abcdef', startNs, failed: true }),
      { ...step('r', 0, { kind: 1 }), stepKind: StepKind.llm },
      step('r2', 0, { kind: 3, stateHash: 's', outputHash: 'o', spanId: 'abc', startNs: startNs + 1n }),
      { ...step('r', 0, { kind: 1 }), stepKind: StepKind.run },
    ]);
    expect(loopStepCount(signals)).toBe(2);
    expect(signals.endedRuns).toEqual(['r']);
    expect(signals.services).toEqual({ r: 'svc', r2: 'svc' });
    expect(loopStepAt(signals, 0)).toEqual({
      runId: 'r',
      kind: 1,
      failed: true,
      tool: 'search',
      argsKey: hashKey('a1'),
      stateKey: 0,
      outputKey: 0,
      startHi: Number(startNs >> 32n),
      startLo: Number(startNs & 0xffffffffn),
      spanHi: 0x01234567,
      spanLo: 0x89abcdef,
    });
    expect(loopStepAt(signals, 1)).toMatchObject({
      runId: 'r2',
      kind: 3,
      failed: false,
      tool: '',
      argsKey: 0,
      stateKey: hashKey('s'),
      outputKey: hashKey('o'),
      startLo: Number((startNs + 1n) & 0xffffffffn),
      spanHi: 0,
      spanLo: 0xabc,
    });
  });

  it('gives a hash string one key, 0 to none, and different hashes different keys', () => {
    expect(hashKey('')).toBe(0);
    expect(hashKey('3f2a9c')).toBe(hashKey('3f2a9c'));
    const keys = new Set<number>();
    for (let i = 0; i < 50_000; i++) {
      const key = hashKey(`${i.toString(16).padStart(16, '0')}`);
      expect(Number.isSafeInteger(key) && key > 0).toBe(true);
      keys.add(key);
    }
    expect(keys.size).toBe(50_000);
  });
});
