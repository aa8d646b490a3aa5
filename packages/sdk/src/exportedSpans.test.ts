import { readFileSync } from 'node:fs';
import { SpanKind } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { createTelltale } from './createTelltale.js';
import { RunGuardError } from './RunGuardError.js';
import { inMemoryTelltale } from './testing/inMemoryTelltale.js';

/** What an exporter receives of a span, attribute order included (it is the OTLP order). */
function exported(span: ReadableSpan, byId: Map<string, string>) {
  return {
    name: span.name,
    kind: SpanKind[span.kind],
    parent: span.parentSpanContext === undefined ? null : (byId.get(span.parentSpanContext.spanId) ?? '?'),
    start: span.startTime,
    end: span.endTime,
    status: span.status,
    attributes: Object.entries(span.attributes),
    events: span.events.map((e) => ({ name: e.name, time: e.time, attributes: Object.keys(e.attributes ?? {}) })),
    dropped: [span.droppedAttributesCount, span.droppedEventsCount, span.droppedLinksCount],
  };
}

// Pins what the step wrappers export — every attribute, its value and order, status, events and
// nesting — for a representative run, so optimising the hot path cannot change the data.
describe('exported spans', () => {
  it('a run of every step kind exports exactly these spans', async () => {
    let now = 1_700_000_000_000;
    const t = inMemoryTelltale();
    const { run, plan, tool, llm, act, validate, step, retry } = createTelltale({
      tracerProvider: t.provider,
      clock: () => (now += 5),
    });
    await run(
      'support-agent',
      async (r) => {
        await plan('plan', () => 1, { state: { ticket: 7 }, attributes: { 'app.tenant': 'acme' } });
        await tool('lookup_order', { orderId: 'ORD-1001', i: 3 }, (args, s) => {
          s.setAttribute('app.rows', args.i);
          t.provider.getTracer('http').startSpan('GET /orders', { startTime: now }).end(now);
          return args.orderId;
        });
        await tool('sync_tool', [1, 'two', null], () => 'done');
        const bad = {
          get boom(): number {
            throw new Error('getter');
          },
        };
        await tool('unhashable', bad, () => 1);
        await llm('draft', { model: 'gpt-4o-mini', provider: 'openai' }, (s) => {
          s.recordUsage({ inputTokens: 100, outputTokens: 20, cachedInputTokens: 10, costUsd: 0.002 });
          s.recordUsage({ inputTokens: 1, outputTokens: 2 });
          s.setResponseModel('gpt-4o-mini-2024');
        });
        await act('send', () => undefined, { sideEffect: true, attempt: 2 });
        await validate('check', (s) => s.setOutputHash({ ok: true }));
        await step('retrieval', 'vector-search', (s) => s.setStateHash(['a']));
        let calls = 0;
        await retry(
          'flaky',
          () => {
            calls++;
            if (calls === 1) throw new TypeError('first try fails');
            return 'ok';
          },
          { attempts: 3, kind: 'tool' },
        );
        await act('fails', () => Promise.reject(new RangeError('nope'))).catch(() => undefined);
        r.setAttribute('app.done', true);
      },
      { runId: 'run-pinned', attributes: { 'app.env': 'test' } },
    );
    await run(
      'guarded',
      async () => {
        for (let i = 0; i < 3; i++) await tool('same', { q: 1 }, () => i);
      },
      { runId: 'run-guarded', guard: { maxRepeats: 3 } },
    ).catch((err: unknown) => {
      expect(err).toBeInstanceOf(RunGuardError);
    });

    const spans = t.spans();
    const byId = new Map(spans.map((s) => [s.spanContext().spanId, s.name]));
    expect(spans.map((s) => exported(s, byId))).toEqual(PINNED);
  });
});

// Recorded from the SDK before its hot path was optimised; hashes are literal (SHA-256 of canonical JSON).
const PINNED: unknown = JSON.parse(readFileSync(new URL('./exportedSpans.pinned.json', import.meta.url), 'utf8'));
