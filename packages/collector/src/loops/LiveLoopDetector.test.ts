import { describe, expect, it } from 'vitest';
import { LiveLoopDetector, type LiveLoopEvent } from './LiveLoopDetector.js';
import type { LoopSignals, LoopStep } from './loopSignals.js';

let spanSeq = 0;
function step(runId: string, startMs: number, fields: Partial<LoopStep> & Pick<LoopStep, 'kind'>): LoopStep {
  return {
    runId,
    startNs: BigInt(startMs) * 1_000_000n,
    spanId: (++spanSeq).toString(16).padStart(16, '0'),
    failed: false,
    tool: '',
    argsHash: '',
    stateHash: '',
    outputHash: '',
    ...fields,
  };
}
const tool = (runId: string, at: number, name: string, args = 'same-args'): LoopStep =>
  step(runId, at, { kind: 1, tool: name, argsHash: args });
const signals = (steps: LoopStep[], endedRuns: string[] = []): LoopSignals => ({
  projectId: 'p',
  steps,
  endedRuns,
  services: { r: 'svc' },
});

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
    const failed = (at: number, hash = 'o'): LoopStep => step('r', at, { kind: 3, failed: true, outputHash: hash });
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
});
