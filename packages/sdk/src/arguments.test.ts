import { OtelAttr, TelltaleAttr, TelltaleError } from '@telltale/semconv';
import { afterEach, describe, expect, it } from 'vitest';
import { createTelltale } from './createTelltale.js';
import { setErrorHandler } from './errorHandler.js';
import { attr, inMemoryTelltale } from './testing/inMemoryTelltale.js';

afterEach(() => setErrorHandler(undefined));

/** Calls `call` (expecting no synchronous throw) and returns the message of its rejection, a BAD_REQUEST TelltaleError. */
async function rejection(call: () => Promise<unknown>): Promise<string> {
  let promise: Promise<unknown> | undefined;
  expect(() => (promise = call())).not.toThrow();
  const err: unknown = await promise!.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(TelltaleError);
  expect(err).toMatchObject({ code: 'BAD_REQUEST' });
  return (err as TelltaleError).message;
}

describe('invalid wrapper arguments', () => {
  it('reject with a TelltaleError naming the argument, never throw, and run nothing', async () => {
    const t = inMemoryTelltale();
    const { run, act, validate, tool, llm, step, retry } = t.telltale;
    let calls = 0;
    const fn = (): number => ++calls;
    const cases: [() => Promise<unknown>, string][] = [
      [
        () => llm('l', undefined as never, fn),
        'llm("l"): model must be a model name or { model, provider?, operation? }, got undefined',
      ],
      [
        () => llm('l', { provider: 'openai' } as never, fn),
        'llm("l"): model.model must be a string (the model name), got undefined',
      ],
      [
        () => retry('rr', fn, undefined as never),
        'retry("rr"): options must be { attempts, backoff?, retryIf?, kind?, … }, got undefined',
      ],
      [
        () => retry('rr', fn, { attempts: 2, backoff: 200 } as never),
        'retry("rr"): options.backoff must be { initialMs, factor?, maxMs?, jitter? } or (failedAttempt) => ms, got 200',
      ],
      [
        () => retry('rr', fn, { attempts: 2, backoff: { initialMs: 10, jitter: 2 } }),
        'retry("rr"): options.backoff.jitter must be true, false or a number from 0 to 1, got 2',
      ],
      [
        () => retry('rr', fn, { attempts: 2, kind: 'run' as never }),
        'retry("rr"): options.kind must be a step kind (plan, act, validate, tool, llm, retrieval, handoff, guardrail, custom), got "run"',
      ],
      [
        () => act('a', fn, { capture: 'everything' as never }),
        `act("a"): options.capture must be 'none', 'metadata' or 'full', got "everything"`,
      ],
      [() => act('a', fn, { attempt: 0 }), 'act("a"): options.attempt must be an integer ≥ 1, got 0'],
      [
        () => act('a', fn, { retry: { attempts: 0 } }),
        'act("a"): options.retry.attempts must be an integer ≥ 1, got 0',
      ],
      [() => validate('v', 'not a function' as never), 'validate("v"): fn must be a function, got "not a function"'],
      [() => act(undefined as never, fn), 'act(undefined): name must be a string, got undefined'],
      [() => tool('t', {}, fn, 'fast' as never), 'tool("t"): options must be an object, got "fast"'],
      [
        () => step('retreival' as never, 's', fn),
        'step("s"): kind must be a step kind (plan, act, validate, tool, llm, retrieval, handoff, guardrail, custom), got "retreival"',
      ],
      [
        () => run('agent', fn, { guard: { maxSteps: -1 } }),
        'run("agent"): options.guard.maxSteps must be an integer ≥ 1, got -1',
      ],
      [
        () => run('agent', fn, { guard: { maxRepeats: 1 } }),
        'run("agent"): options.guard.maxRepeats must be an integer ≥ 2, got 1',
      ],
      [
        () => run('agent', fn, { guard: { maxDurationMs: Number.NaN } }),
        'run("agent"): options.guard.maxDurationMs must be a number ≥ 0, got NaN',
      ],
      [
        () => run('agent', fn, { guard: { maxStep: 5 } as never }),
        'run("agent"): options.guard.maxStep is not a guard limit (maxRepeats, maxSteps, maxCostUsd, maxDurationMs)',
      ],
      [() => run('agent', fn, { runId: '' }), 'run("agent"): options.runId must be a non-empty string, got ""'],
    ];
    for (const [call, message] of cases) expect(await rejection(call)).toBe(message);
    expect(calls).toBe(0);
    expect(t.spans()).toHaveLength(0);
  });

  it('rejects inside a run without failing the run on its own', async () => {
    const t = inMemoryTelltale();
    const { run, llm } = t.telltale;
    const answer = await run('agent', () => llm('draft', undefined as never, () => 'text').catch(() => 'fallback'));
    expect(answer).toBe('fallback');
    expect(t.spans().map((s) => s.name)).toEqual(['agent']);
  });

  it('takes a string as the model name', async () => {
    const t = inMemoryTelltale();
    expect(await t.telltale.llm('draft', 'gpt-4o', () => 'text')).toBe('text');
    const span = t.span('draft');
    expect(attr(span, OtelAttr.genAiRequestModel)).toBe('gpt-4o');
    expect(attr(span, OtelAttr.genAiOperationName)).toBe('chat');
    expect(attr(span, OtelAttr.genAiProviderName)).toBeUndefined();
    expect(attr(span, TelltaleAttr.stepKind)).toBe('llm');
  });

  it('reports an invalid capture given to createTelltale and captures nothing', async () => {
    const faults: TelltaleError[] = [];
    setErrorHandler((e) => faults.push(e));
    const t = inMemoryTelltale();
    const { tool } = createTelltale({ tracerProvider: t.provider, capture: 'everything' as never });
    expect(faults.map((f) => [f.code, f.message])).toEqual([
      [
        'INVALID_CONFIG',
        `telltale sdk config: createTelltale: capture must be 'none', 'metadata' or 'full', got "everything": ignored`,
      ],
    ]);
    await tool('search', { q: 'secret' }, () => 'result');
    expect(attr(t.span('search'), OtelAttr.genAiToolCallArguments)).toBeUndefined();
  });
});
