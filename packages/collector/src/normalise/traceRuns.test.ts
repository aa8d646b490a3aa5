import { TelltaleAttr } from '@telltale/semconv';
import { describe, expect, it } from 'vitest';
import type { OtlpSpan } from '../otlp/types.js';
import { normaliseRequest } from './normaliseRequest.js';
import { TraceRuns } from './traceRuns.js';
import { NOW_MS, NOW_NS, otlpRequest, otlpSpan } from './otlpSpan.fixture.js';

const T1 = '11111111111111111111111111111111';
const T2 = '22222222222222222222222222222222';

function span(traceId: string, spanId: string, parentSpanId: string, runId?: string): OtlpSpan {
  return otlpSpan({
    traceId,
    spanId: spanId.padStart(16, '0'),
    parentSpanId: parentSpanId === '' ? '' : parentSpanId.padStart(16, '0'),
    name: `span ${spanId}`,
    endTimeUnixNano: NOW_NS + 1n,
    attributes: runId === undefined ? [] : [{ key: TelltaleAttr.runId, value: runId }],
  });
}

function runs(index: TraceRuns, spans: OtlpSpan[], projectId = 'p'): string[] {
  return normaliseRequest(otlpRequest(spans), projectId, { nowMs: NOW_MS, traceRuns: index }).spans.map(
    (s) => `${s.spanId.replace(/^0+/, '')}:${s.runId === s.traceId ? 'trace' : s.runId}`,
  );
}

describe('untagged spans join the run their trace names', () => {
  it('in the same request, whatever the order', () => {
    const index = new TraceRuns();
    expect(runs(index, [span(T1, '2', '1'), span(T1, '1', '', 'run-a'), span(T2, '3', '')])).toEqual([
      '2:run-a',
      '1:run-a',
      '3:trace',
    ]);
  });

  it('in a later request (the index remembers the trace), per project', () => {
    const index = new TraceRuns();
    runs(index, [span(T1, '1', '', 'run-a')]);
    expect(runs(index, [span(T1, '4', '9')])).toEqual(['4:run-a']);
    expect(runs(index, [span(T1, '4', '9')], 'other-project')).toEqual(['4:trace']);
  });

  it('a trace with several runs: the nearest tagged ancestor in the request decides, else the trace id', () => {
    const index = new TraceRuns();
    const spans = [
      span(T1, '1', ''), // e.g. an HTTP server span around two agent runs
      span(T1, '2', '1', 'run-a'),
      span(T1, '3', '1', 'run-b'),
      span(T1, '5', '4'), // its parent 4 (untagged) is under run-b
      span(T1, '4', '3'),
      span(T1, '6', '99'), // parent not in the request
    ];
    expect(runs(index, spans)).toEqual(['1:trace', '2:run-a', '3:run-b', '5:run-b', '4:run-b', '6:trace']);
  });

  it('a span that arrives before any tagged span of its trace keeps its trace id', () => {
    const index = new TraceRuns();
    expect(runs(index, [span(T1, '2', '1')])).toEqual(['2:trace']);
  });

  it('starts afresh past its capacity', () => {
    const index = new TraceRuns(1);
    runs(index, [span(T1, '1', '', 'run-a')]);
    runs(index, [span(T2, '2', '', 'run-b')]);
    expect(runs(index, [span(T1, '3', '1'), span(T2, '4', '2')])).toEqual(['3:trace', '4:run-b']);
  });
});
