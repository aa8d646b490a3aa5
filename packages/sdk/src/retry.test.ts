import { SpanStatusCode } from '@opentelemetry/api';
import { OtelAttr, TelltaleAttr } from '@telltale/semconv';
import { describe, expect, it } from 'vitest';
import { backoffDelay } from './internal/backoffDelay.js';
import { attr, inMemoryTelltale } from './testing/inMemoryTelltale.js';

class RateLimitError extends Error {
  readonly code = 'rate_limited';
}

/** A tool that fails its first `failures` calls. */
function flaky(failures: number): { calls: number; call: () => Promise<string> } {
  const state = {
    calls: 0,
    call: () => {
      state.calls++;
      if (state.calls <= failures) return Promise.reject(new RateLimitError(`rate limited (call ${state.calls})`));
      return Promise.resolve(`ok after ${state.calls}`);
    },
  };
  return state;
}

describe('retry', () => {
  it('records attempts 1..n as sibling spans, failed ones ERROR, and returns the first success', async () => {
    const t = inMemoryTelltale();
    const { run, retry } = t.telltale;
    const tool = flaky(2);
    const seen: number[] = [];
    const value = await run('agent', () =>
      retry(
        'fetch',
        (s) => {
          seen.push(s.attempt);
          return tool.call();
        },
        { attempts: 4 },
      ),
    );
    expect(value).toBe('ok after 3');
    expect(seen).toEqual([1, 2, 3]);
    const attempts = t.spans().filter((s) => s.name === 'fetch');
    expect(attempts.map((s) => attr(s, TelltaleAttr.stepAttempt))).toEqual([1, 2, 3]);
    expect(attempts.map((s) => attr(s, TelltaleAttr.stepMaxAttempts))).toEqual([4, 4, 4]);
    expect(attempts.map((s) => s.status.code)).toEqual([SpanStatusCode.ERROR, SpanStatusCode.ERROR, SpanStatusCode.OK]);
    expect(attempts.map((s) => attr(s, TelltaleAttr.stepKind))).toEqual(['act', 'act', 'act']);
    expect(attr(attempts[0]!, OtelAttr.errorType)).toBe('rate_limited');
    const rootId = t.span('agent').spanContext().spanId;
    for (const s of attempts) expect(s.parentSpanContext?.spanId).toBe(rootId);
  });

  it('rethrows the last error unchanged when attempts run out', async () => {
    const t = inMemoryTelltale();
    const errors: Error[] = [];
    const promise = t.telltale.retry(
      'send',
      (s) => {
        const err = new Error(`attempt ${s.attempt}`);
        errors.push(err);
        throw err;
      },
      { attempts: 3, kind: 'tool', backoff: () => 1 },
    );
    const thrown: unknown = await promise.catch((e: unknown) => e);
    expect(thrown).toBe(errors[2]);
    expect(errors).toHaveLength(3);
    expect(t.spans().map((s) => s.status.code)).toEqual([
      SpanStatusCode.ERROR,
      SpanStatusCode.ERROR,
      SpanStatusCode.ERROR,
    ]);
    expect(t.spans().map((s) => attr(s, TelltaleAttr.stepKind))).toEqual(['tool', 'tool', 'tool']);
  });

  it('stops at once when retryIf says no', async () => {
    const t = inMemoryTelltale();
    const fatal = new TypeError('schema mismatch');
    await expect(
      t.telltale.retry('parse', () => Promise.reject(fatal), {
        attempts: 5,
        retryIf: (e) => e instanceof RateLimitError,
      }),
    ).rejects.toBe(fatal);
    expect(t.spans()).toHaveLength(1);
  });

  it('retries a tool through opts.retry, with tool attributes on every attempt', async () => {
    const t = inMemoryTelltale();
    const search = flaky(1);
    const seen: unknown[] = [];
    const value = await t.telltale.tool(
      'search',
      { q: 'x' },
      (args) => {
        seen.push(args);
        return search.call();
      },
      { retry: { attempts: 3, backoff: { initialMs: 1, factor: 2, maxMs: 5 } } },
    );
    expect(value).toBe('ok after 2');
    expect(seen).toEqual([{ q: 'x' }, { q: 'x' }]);
    const spans = t.spans();
    expect(spans.map((s) => attr(s, TelltaleAttr.stepAttempt))).toEqual([1, 2]);
    expect(new Set(spans.map((s) => attr(s, TelltaleAttr.toolArgsHash))).size).toBe(1);
    expect(spans.every((s) => attr(s, TelltaleAttr.toolName) === 'search')).toBe(true);
  });

  it('rejects an attempt budget that is not an integer ≥ 1, running nothing', async () => {
    const t = inMemoryTelltale();
    let calls = 0;
    for (const attempts of [0, -1, 2.5, 'three', undefined]) {
      await expect(t.telltale.retry('once', () => ++calls, { attempts } as never)).rejects.toMatchObject({
        code: 'BAD_REQUEST',
        message: `retry("once"): options.attempts must be an integer ≥ 1, got ${attempts === 'three' ? '"three"' : String(attempts)}`,
      });
    }
    expect(calls).toBe(0);
    expect(t.spans()).toHaveLength(0);
  });
});

describe('backoffDelay', () => {
  it('grows exponentially up to maxMs and applies jitter', () => {
    const policy = { initialMs: 100, factor: 3, maxMs: 500 };
    expect([1, 2, 3].map((n) => backoffDelay(policy, n))).toEqual([100, 300, 500]);
    expect(backoffDelay({ initialMs: 100 }, 2)).toBe(200);
    expect(backoffDelay({ initialMs: 100, jitter: true }, 1, () => 0.25)).toBe(75);
    expect(backoffDelay({ initialMs: 100, jitter: 0.5 }, 1, () => 1)).toBe(50);
  });

  it('uses a backoff function and never returns a bad delay', () => {
    expect(backoffDelay((n) => n * 10, 3)).toBe(30);
    expect(backoffDelay(() => Number.NaN, 1)).toBe(0);
    expect(backoffDelay(() => -5, 1)).toBe(0);
    expect(backoffDelay(undefined, 1)).toBe(0);
  });
});
