import { TelltaleAttr } from '@telltale/semconv';
import { otlpRequest, otlpSpan } from '../normalise/otlpSpan.fixture.js';
import type { OtlpSpan } from '../otlp/types.js';

/** A span of run `run` (trace `t`), child of `parent` when given. */
function span(run: string, t: string, s: string, parent: string | undefined, kind: string): OtlpSpan {
  return otlpSpan({
    traceId: t.repeat(32),
    spanId: s.repeat(16),
    parentSpanId: parent === undefined ? '' : parent.repeat(16),
    name: kind,
    attributes: [
      { key: TelltaleAttr.runId, value: run },
      { key: TelltaleAttr.stepKind, value: kind },
    ],
  });
}

/** Run `whole` (its root and two steps) and run "open" (two steps, its root not sent yet). */
export function wholeRunRequest(whole: string): ReturnType<typeof otlpRequest> {
  return otlpRequest(
    [
      span(whole, 'a', '1', undefined, 'run'),
      span(whole, 'a', '2', '1', 'plan'),
      span(whole, 'a', '3', '1', 'tool'),
      span('open', 'b', '5', '4', 'plan'),
      span('open', 'b', '6', '4', 'tool'),
    ],
    'svc',
  );
}

/** Run "whole" (its root and two steps) and run "open" (two steps, its root not sent yet). */
export const WHOLE_RUN_REQUEST = wholeRunRequest('whole');
