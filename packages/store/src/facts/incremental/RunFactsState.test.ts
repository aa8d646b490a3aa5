import { describe, expect, it } from 'vitest';
import { makeSpan } from '../../testing/makeSpan.js';
import { RunFactsState } from './RunFactsState.js';

const span = (runId: string, spanId: string, traceId = 'a'.repeat(32)) =>
  makeSpan({ runId, spanId, traceId, startTimeUnixNano: 1_000_000n });

describe('RunFactsState (the spans kept for the incremental facts)', () => {
  it('keeps a span stored twice once, and gives a run only when storage holds as many rows as it kept', () => {
    const state = new RunFactsState();
    state.addRecords([span('r1', '0000000000000001'), span('r1', '0000000000000002')]);
    state.addRecords([span('r1', '0000000000000002')]);
    expect(state.spans()).toBe(2);
    expect(state.spansOf('p1', 'r1', 2)?.spans.map((s) => s.spanId)).toEqual(['0000000000000001', '0000000000000002']);
    // storage holds a row this process did not keep (another process, before a restart, a duplicate not merged yet)
    expect(state.spansOf('p1', 'r1', 3)).toBeUndefined();
    expect(state.spansOf('p1', 'r2', 0)).toBeUndefined();
  });

  it('drops the least recently active runs whole past its cap', () => {
    const state = new RunFactsState({ maxSpans: 3 });
    state.addRecords([span('old', '0000000000000001'), span('old', '0000000000000002')]);
    state.addRecords([span('new', '0000000000000003')]);
    state.addRecords([span('old', '0000000000000004')]); // old is the most recent now
    state.addRecords([span('newest', '0000000000000005')]);
    expect(state.spans()).toBeLessThanOrEqual(3);
    expect(state.spansOf('p1', 'new', 1), 'the least recently active run went first').toBeUndefined();
    expect(state.spansOf('p1', 'newest', 1)?.spans).toHaveLength(1);
  });

  it('tells the runs whose spans all name them from those the trace resolver may change', () => {
    const state = new RunFactsState();
    const trace = 'b'.repeat(32);
    state.addRecords([span('tagged', '0000000000000001', trace)]);
    // a span naming no run is stored under its trace id
    state.addRecords([span(trace, '0000000000000002', trace)]);
    expect([...(state.tracesOfTagged('p1', 'tagged') ?? [])]).toEqual([trace]);
    expect(state.tracesOfTagged('p1', trace)).toBeUndefined();
    expect(state.tracesOfTagged('p1', 'unknown')).toBeUndefined();
  });
});
