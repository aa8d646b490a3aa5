import { SpanStatusCode } from '@opentelemetry/api';
import { OtelAttr, TelltaleAttr } from '@telltale/semconv';
import { describe, expect, it } from 'vitest';
import { RunGuardError } from './RunGuardError.js';
import { attr, inMemoryTelltale } from './testing/inMemoryTelltale.js';

describe('run guards', () => {
  it('stops a looping agent at the configured repeat count, records why, and lets it fall back', async () => {
    const t = inMemoryTelltale();
    const { run, tool } = t.telltale;
    let executed = 0;
    let caught: unknown;
    const answer = await run(
      'looper',
      async () => {
        try {
          for (;;) await tool('search', { q: 'same' }, () => ++executed);
        } catch (err) {
          caught = err;
          throw err;
        }
      },
      { guard: { maxRepeats: 3 } },
    ).catch((err: unknown) => (err instanceof RunGuardError ? `fallback after ${err.reason}` : 'other'));

    expect(answer).toBe('fallback after loop');
    expect(executed).toBe(2);
    expect(caught).toBeInstanceOf(RunGuardError);
    expect(caught).toMatchObject({ reason: 'loop', limit: 3, observed: 3, stepName: 'search' });
    const searches = t.spans().filter((s) => s.name === 'search');
    // three identical calls are on record (the server's repeated-action rule), the third one failed unrun
    expect(searches).toHaveLength(3);
    expect(searches[2]!.status.code).toBe(SpanStatusCode.ERROR);
    expect(attr(searches[2]!, OtelAttr.errorType)).toBe('run_guard.loop');
    const root = t.span('looper');
    expect(attr(root, TelltaleAttr.runStopReason)).toBe('loop');
    expect(attr(root, TelltaleAttr.runOutcome)).toBe('failure');
  });

  it('different arguments are not a loop', async () => {
    const t = inMemoryTelltale();
    const { run, tool } = t.telltale;
    await run(
      'varied',
      async () => {
        for (let i = 0; i < 5; i++) await tool('search', { q: i }, () => i);
      },
      { guard: { maxRepeats: 2 } },
    );
    expect(attr(t.span('varied'), TelltaleAttr.runStopReason)).toBeUndefined();
  });

  it('stops runaway step counts, budgets and durations', async () => {
    const t = inMemoryTelltale();
    const { run, act, llm } = t.telltale;
    await expect(
      run(
        'runaway',
        async () => {
          for (let i = 0; ; i++) await act(`step-${i}`, () => i);
        },
        { guard: { maxSteps: 4 } },
      ),
    ).rejects.toMatchObject({ reason: 'max_steps', observed: 5 });

    await expect(
      run(
        'spender',
        async () => {
          for (;;)
            await llm('call', { model: 'm' }, (s) =>
              s.recordUsage({ inputTokens: 10, outputTokens: 10, costUsd: 0.4 }),
            );
        },
        { guard: { maxCostUsd: 1 } },
      ),
    ).rejects.toMatchObject({ reason: 'budget', limit: 1 });
    expect(t.spans().filter((s) => s.name === 'call' && s.status.code !== SpanStatusCode.ERROR)).toHaveLength(3);

    let now = 0;
    const { createTelltale } = await import('./createTelltale.js');
    const timed = createTelltale({ tracerProvider: t.provider, clock: () => now });
    await expect(
      timed.run(
        'slow',
        async () => {
          for (;;) await timed.act('tick', () => (now += 400));
        },
        { guard: { maxDurationMs: 1000 } },
      ),
    ).rejects.toMatchObject({ reason: 'timeout' });
    expect(['runaway', 'spender', 'slow'].map((n) => attr(t.span(n), TelltaleAttr.runStopReason))).toEqual([
      'max_steps',
      'budget',
      'timeout',
    ]);
    // the stopped step and the run it left say what stopped it; the server reads /timeout/i as a timeout
    const stopped = t.spans().filter((s) => s.status.code === SpanStatusCode.ERROR);
    expect(stopped.map((s) => [s.name, attr(s, OtelAttr.errorType)])).toEqual([
      ['step-4', 'run_guard.max_steps'],
      ['runaway', 'run_guard.max_steps'],
      ['call', 'run_guard.budget'],
      ['spender', 'run_guard.budget'],
      ['tick', 'run_guard.timeout'],
      ['slow', 'run_guard.timeout'],
    ]);
    expect(attr(t.span('slow'), OtelAttr.errorType)).toMatch(/timeout/i);
  });

  it('steps outside a guarded run are never stopped', async () => {
    const t = inMemoryTelltale();
    for (let i = 0; i < 5; i++) await t.telltale.tool('search', { q: 1 }, () => i);
    expect(t.spans()).toHaveLength(5);
  });
});
