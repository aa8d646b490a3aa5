import { context } from '@opentelemetry/api';
import type { Tracer, TracerProvider } from '@opentelemetry/api';
import { TelltaleAttr, TelltaleError } from '@telltale/semconv';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTelltale } from './createTelltale.js';
import { createTracerProvider } from './createTracerProvider.js';
import { setErrorHandler } from './errorHandler.js';
import { errorTypeOf } from './internal/errorType.js';
import { inMemoryTelltale } from './testing/inMemoryTelltale.js';
import { ThrowingSpanExporter } from './testing/ThrowingSpanExporter.js';

/** A provider whose tracer throws on every span start (a broken OTel setup). */
class BrokenTracerProvider implements TracerProvider {
  getTracer(): Tracer {
    return {
      startSpan: () => {
        throw new Error('tracer exploded');
      },
      startActiveSpan: () => {
        throw new Error('tracer exploded');
      },
    } as Tracer;
  }
}

afterEach(() => setErrorHandler(undefined));

describe('telemetry faults never reach the agent', () => {
  it('runs the agent normally when the exporter throws', async () => {
    const faults: TelltaleError[] = [];
    setErrorHandler((e) => faults.push(e));
    const throwing = new ThrowingSpanExporter();
    const provider = createTracerProvider({ service: 'svc', exporter: throwing, batch: { scheduledDelayMillis: 1 } });
    const { run, tool } = createTelltale({ tracerProvider: provider });
    const value = await run('agent', () => tool('search', { q: 1 }, () => 'result'));
    expect(value).toBe('result');
    // The provider's own flush reports the failed export as a rejection (standard OTel).
    await provider.forceFlush().catch(() => undefined);
    await provider.shutdown().catch(() => undefined);
    expect(throwing.calls).toBeGreaterThan(0);
    expect(faults.some((f) => f.code === 'UNAVAILABLE' && f.cause instanceof Error)).toBe(true);
  });

  it('runs the agent normally when a synchronous exporter throws inside span.end', async () => {
    const t = inMemoryTelltale(new ThrowingSpanExporter());
    expect(await t.telltale.run('agent', () => t.telltale.act('a', () => 7))).toBe(7);
    expect(t.spans()).toHaveLength(2);
  });

  it('runs fn and keeps its result and errors when the tracer itself throws', async () => {
    const faults: TelltaleError[] = [];
    setErrorHandler((e) => faults.push(e));
    const { run, llm } = createTelltale({ tracerProvider: new BrokenTracerProvider() });
    const value = await run('agent', async (r) => {
      expect(r.runId).toBeTypeOf('string');
      r.setOutcome('success');
      return llm('draft', { model: 'gpt-4o-mini' }, (s) => {
        s.recordUsage({ inputTokens: 1, outputTokens: 1 });
        return 'text';
      });
    });
    expect(value).toBe('text');
    const boom = new Error('agent error');
    await expect(run('agent', () => Promise.reject(boom))).rejects.toBe(boom);
    expect(faults.length).toBeGreaterThan(0);
    expect(faults[0]).toBeInstanceOf(TelltaleError);
    expect(faults[0]?.message).toContain('span.start');
  });

  it('runs each step once when entering its context fails, and once when the step itself fails', async () => {
    const faults: TelltaleError[] = [];
    setErrorHandler((e) => faults.push(e));
    const t = inMemoryTelltale();
    const { run, act } = t.telltale;
    let calls = 0;
    const withSpy = vi.spyOn(context, 'with').mockImplementationOnce(() => {
      throw new Error('context manager exploded');
    });
    try {
      expect(await act('no-context', () => ++calls)).toBe(1);
    } finally {
      withSpy.mockRestore();
    }
    expect(faults.map((f) => f.message)).toEqual(['telltale sdk context: context manager exploded']);
    const boom = new Error('step failed');
    await expect(
      run('agent', () =>
        act('fails', () => {
          calls++;
          throw boom;
        }),
      ),
    ).rejects.toBe(boom);
    expect(calls).toBe(2);
    expect(faults).toHaveLength(1);
  });

  it('survives a handler that throws', async () => {
    setErrorHandler(() => {
      throw new Error('handler exploded');
    });
    const { act } = createTelltale({ tracerProvider: new BrokenTracerProvider() });
    expect(await act('a', () => 1)).toBe(1);
  });

  it('omits the args hash when hashing throws, and still calls the tool', async () => {
    const faults: TelltaleError[] = [];
    setErrorHandler((e) => faults.push(e));
    const t = inMemoryTelltale();
    const args = {
      get secret(): string {
        throw new Error('getter exploded');
      },
    };
    expect(await t.telltale.tool('odd', args, () => 'ok')).toBe('ok');
    expect(t.span('odd').attributes[TelltaleAttr.toolArgsHash]).toBeUndefined();
    expect(faults.map((f) => f.message)).toEqual([expect.stringContaining('hash')]);
  });

  it('works with no provider at all (global no-op tracer)', async () => {
    const { run, tool } = createTelltale();
    expect(await run('agent', (r) => tool('t', {}, (_args, s) => [r.runId, s.span.isRecording()]))).toEqual([
      expect.any(String),
      false,
    ]);
  });
});

describe('errorTypeOf', () => {
  it('prefers an identifier-like code, then the name, then the constructor', () => {
    expect(errorTypeOf(Object.assign(new Error('x'), { code: 'ETIMEDOUT' }))).toBe('ETIMEDOUT');
    expect(errorTypeOf(Object.assign(new Error('x'), { code: 'has spaces in it' }))).toBe('Error');
    expect(errorTypeOf(Object.assign(new Error('x'), { code: 429 }))).toBe('Error');
    expect(errorTypeOf(new RangeError('x'))).toBe('RangeError');
    class ToolTimeout extends Error {}
    expect(errorTypeOf(new ToolTimeout('x'))).toBe('ToolTimeout');
    const named = new Error('x');
    named.name = 'AbortError';
    expect(errorTypeOf(named)).toBe('AbortError');
    expect(errorTypeOf('a string')).toBe('_OTHER');
    expect(errorTypeOf({ message: 'plain object' })).toBe('_OTHER');
    expect(errorTypeOf(Object.create(null))).toBe('_OTHER');
  });
});
