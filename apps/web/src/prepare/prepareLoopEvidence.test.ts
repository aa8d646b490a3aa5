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
