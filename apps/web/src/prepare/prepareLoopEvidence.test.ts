import type { SpanContent } from '@telltale/api-contract';
import { describe, expect, it } from 'vitest';
import { LOOP_EVIDENCE_COLUMNS, prepareLoopEvidence } from './prepareLoopEvidence';

const tool = (spanId: string, args: unknown, result: unknown): SpanContent => ({
  traceId: 't',
  spanId,
  input: { toolArguments: args },
  output: { toolResult: result },
  truncated: false,
  originalBytes: 10,
  capture: 'full',
  redactedStrings: 0,
});

describe('prepareLoopEvidence', () => {
  it('picks each detection’s calls from the run’s content, marking repeats of the first', () => {
    const spans = [tool('a', { q: 'x' }, 'none'), tool('b', { q: 'x' }, 'none'), tool('c', { q: 'y' }, 'one')];
    const [view] = prepareLoopEvidence([{ key: 'k', spanIds: ['a', 'b', 'c', 'gone'] }], spans);
    expect(view).toEqual({
      key: 'k',
      calls: [
        { spanId: 'a', label: '#1', input: { q: 'x' }, output: 'none', hasContent: true, sameAsFirst: false },
        { spanId: 'b', label: '#2', input: { q: 'x' }, output: 'none', hasContent: true, sameAsFirst: true },
        { spanId: 'c', label: '#3', input: { q: 'y' }, output: 'one', hasContent: true, sameAsFirst: false },
        { spanId: 'gone', label: '#4', input: undefined, output: undefined, hasContent: false, sameAsFirst: false },
      ],
      moreCalls: 0,
      withContent: 3,
    });
  });

  it('folds JSON text, and marks repeats by their output when no input was kept', () => {
    const step = (spanId: string, input: string | undefined, output: string): SpanContent => ({
      ...tool(spanId, undefined, undefined),
      input: input === undefined ? {} : { text: input },
      output: { text: output },
    });
    const spans = [
      step('p1', '{"status":"degraded"}', 'next'),
      step('p2', '{"status":"degraded"}', 'next'),
      step('v1', undefined, '{"resolved":false}'),
      step('v2', undefined, '{"resolved":false}'),
      step('v3', undefined, '{"resolved":true}'),
    ];
    const [plans, checks] = prepareLoopEvidence(
      [
        { key: 'plans', spanIds: ['p1', 'p2'] },
        { key: 'checks', spanIds: ['v1', 'v2', 'v3'] },
      ],
      spans,
    );
    expect(plans!.calls.map((c) => [c.input, c.output, c.sameAsFirst])).toEqual([
      [{ status: 'degraded' }, 'next', false],
      [{ status: 'degraded' }, 'next', true],
    ]);
    expect(checks!.calls.map((c) => [c.input, c.output, c.sameAsFirst])).toEqual([
      [undefined, { resolved: false }, false],
      [undefined, { resolved: false }, true],
      [undefined, { resolved: true }, false],
    ]);
  });

  it('shows a bounded number of calls and counts the rest; messages stand in for arguments', () => {
    const ids = Array.from({ length: LOOP_EVIDENCE_COLUMNS + 3 }, (_, i) => `s${i}`);
    const llm: SpanContent = {
      ...tool('s0', undefined, undefined),
      input: { messages: [{ role: 'user', content: 'again' }] },
      output: {},
    };
    const [view] = prepareLoopEvidence([{ key: 'k', spanIds: ids }], [llm]);
    expect(view?.calls).toHaveLength(LOOP_EVIDENCE_COLUMNS);
    expect(view?.moreCalls).toBe(3);
    expect(view?.calls[0]?.input).toEqual([{ role: 'user', content: 'again' }]);
    expect(view?.withContent).toBe(1);
  });
});
