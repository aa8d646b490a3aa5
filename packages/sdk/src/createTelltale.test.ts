import { SpanStatusCode } from '@opentelemetry/api';
import { OtelAttr, TelltaleAttr } from '@telltale/semconv';
import { describe, expect, it } from 'vitest';
import { createTelltale } from './createTelltale.js';
import { stableHash } from './stableHash.js';
import { attr, inMemoryTelltale, parentIdOf, runIdOf } from './testing/inMemoryTelltale.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('createTelltale', () => {
  it('nests steps under the run and stamps the run id on every span', async () => {
    const t = inMemoryTelltale();
    const { run, plan, tool, llm, validate, act } = t.telltale;
    const result = await run('support-agent', async (r) => {
      const p = await plan('plan', () => ['search', 'answer'], { state: { ticket: 7 } });
      const hits = await tool('search', { q: 'refund', limit: 3 }, (args) => {
        // Spans from other instrumentation inside the run get the run id too.
        t.provider.getTracer('http-client').startSpan('GET /search').end();
        return [`${args.q}-1`];
      });
      await llm('draft', { model: 'gpt-4o-mini', provider: 'openai' }, () => 'draft');
      await validate('check', () => true);
      await act('send', () => undefined, { sideEffect: true });
      return { runId: r.runId, p, hits };
    });

    expect(result.p).toEqual(['search', 'answer']);
    expect(result.hits).toEqual(['refund-1']);
    expect(result.runId).toMatch(UUID);
    const spans = t.spans();
    expect(spans).toHaveLength(7);
    for (const s of spans) expect(runIdOf(s)).toBe(result.runId);

    const root = t.span('support-agent');
    expect(parentIdOf(root)).toBeUndefined();
    expect(attr(root, TelltaleAttr.stepKind)).toBe('run');
    expect(attr(root, TelltaleAttr.runOutcome)).toBe('success');
    expect(root.status.code).toBe(SpanStatusCode.OK);
    for (const name of ['plan', 'search', 'draft', 'check', 'send']) {
      const s = t.span(name);
      expect(parentIdOf(s)).toBe(root.spanContext().spanId);
      expect(s.spanContext().traceId).toBe(root.spanContext().traceId);
      expect(attr(s, TelltaleAttr.stepName)).toBe(name);
      expect(attr(s, TelltaleAttr.stepAttempt)).toBe(1);
      expect(s.status.code).toBe(SpanStatusCode.OK);
    }
    expect(parentIdOf(t.span('GET /search'))).toBe(t.span('search').spanContext().spanId);
  });

  it('sets the attributes of each step kind', async () => {
    const t = inMemoryTelltale();
    const { run, plan, tool, act, validate, step } = t.telltale;
    await run('agent', async () => {
      await plan('plan', () => 1, { state: { goal: 'x' }, attributes: { 'app.tenant': 'acme' } });
      await tool('search', { b: 2, a: 1 }, () => 1);
      await act('commit', () => 1, { sideEffect: true, attempt: 2 });
      await validate('check', (s) => s.setOutputHash({ ok: false }));
      await step('retrieval', 'vector-search', () => 1);
    });
    const p = t.span('plan');
    expect(attr(p, TelltaleAttr.stepKind)).toBe('plan');
    expect(attr(p, TelltaleAttr.stateHash)).toBe(stableHash({ goal: 'x' }));
    expect(attr(p, 'app.tenant')).toBe('acme');
    const s = t.span('search');
    expect(attr(s, TelltaleAttr.stepKind)).toBe('tool');
    expect(attr(s, TelltaleAttr.toolName)).toBe('search');
    expect(attr(s, OtelAttr.genAiToolName)).toBe('search');
    expect(attr(s, OtelAttr.genAiOperationName)).toBe('execute_tool');
    expect(attr(s, TelltaleAttr.toolArgsHash)).toBe(stableHash({ a: 1, b: 2 }));
    const c = t.span('commit');
    expect(attr(c, TelltaleAttr.stepKind)).toBe('act');
    expect(attr(c, TelltaleAttr.stepSideEffect)).toBe(true);
    expect(attr(c, TelltaleAttr.stepAttempt)).toBe(2);
    expect(attr(t.span('check'), TelltaleAttr.outputHash)).toBe(stableHash({ ok: false }));
    expect(attr(t.span('vector-search'), TelltaleAttr.stepKind)).toBe('retrieval');
  });

  it('hashes tool args independently of key order and distinguishes different args', async () => {
    const t = inMemoryTelltale();
    const { tool } = t.telltale;
    await tool('a', { city: 'Paris', units: 'metric' }, () => 1);
    await tool('b', { units: 'metric', city: 'Paris' }, () => 1);
    await tool('c', { units: 'metric', city: 'Lyon' }, () => 1);
    const hash = (name: string): unknown => attr(t.span(name), TelltaleAttr.toolArgsHash);
    expect(hash('a')).toBe(hash('b'));
    expect(hash('a')).not.toBe(hash('c'));
  });

  it('records llm model and accumulated usage', async () => {
    const t = inMemoryTelltale();
    const { llm } = t.telltale;
    const text = await llm('draft', { model: 'claude-sonnet-4', provider: 'anthropic' }, (s) => {
      s.recordUsage({ inputTokens: 1200, outputTokens: 300, cachedInputTokens: 1000, costUsd: 0.0081 });
      s.recordUsage({ inputTokens: 100, outputTokens: 50, costUsd: 0.001 });
      s.setResponseModel('claude-sonnet-4-20250514');
      return 'hello';
    });
    expect(text).toBe('hello');
    const s = t.span('draft');
    expect(attr(s, TelltaleAttr.stepKind)).toBe('llm');
    expect(attr(s, OtelAttr.genAiOperationName)).toBe('chat');
    expect(attr(s, OtelAttr.genAiRequestModel)).toBe('claude-sonnet-4');
    expect(attr(s, OtelAttr.genAiProviderName)).toBe('anthropic');
    expect(attr(s, OtelAttr.genAiResponseModel)).toBe('claude-sonnet-4-20250514');
    expect(attr(s, OtelAttr.genAiInputTokens)).toBe(1300);
    expect(attr(s, OtelAttr.genAiOutputTokens)).toBe(350);
    expect(attr(s, OtelAttr.genAiCacheReadInputTokens)).toBe(1000);
    expect(attr(s, TelltaleAttr.costUsd)).toBeCloseTo(0.0091, 10);
  });

  it('runs sync functions and returns their value as a promise', async () => {
    const t = inMemoryTelltale();
    const { run, act } = t.telltale;
    const p = run('sync', () => 42);
    expect(p).toBeInstanceOf(Promise);
    expect(await p).toBe(42);
    expect(await act('sync-step', () => 'x')).toBe('x');
    expect(t.spans()).toHaveLength(2);
  });

  it('hands each step its own handle whose methods work destructured', async () => {
    const t = inMemoryTelltale();
    const { run, llm, tool } = t.telltale;
    const handles: unknown[] = [];
    await run('agent', async () => {
      await llm('first', { model: 'm' }, ({ recordUsage, setAttribute, setResponseModel }) => {
        recordUsage({ inputTokens: 2, outputTokens: 3 });
        setAttribute('app.k', 'v');
        setResponseModel('m-1');
      });
      await tool('t', { a: 1 }, (args, step) => {
        handles.push(step.setAttribute);
        const { setOutputHash } = step;
        setOutputHash(args);
      });
      await tool('t2', 1, (_args, step) => handles.push(step.setAttribute));
    });
    const first = t.span('first');
    expect(attr(first, OtelAttr.genAiInputTokens)).toBe(2);
    expect(attr(first, 'app.k')).toBe('v');
    expect(attr(first, OtelAttr.genAiResponseModel)).toBe('m-1');
    expect(attr(t.span('t'), TelltaleAttr.outputHash)).toBe(stableHash({ a: 1 }));
    expect(handles[0]).not.toBe(handles[1]);
  });

  it('awaits thenables a step returns and turns a synchronous throw into a rejection', async () => {
    const t = inMemoryTelltale();
    const { run, act, tool } = t.telltale;
    const thenable = { then: (resolve: (v: string) => void) => setImmediate(() => resolve('later')) };
    const boom = new Error('sync boom');
    const value = await run('agent', async () => {
      const got = await act('thenable', () => thenable as unknown as PromiseLike<string>);
      const thrown = tool('throws', {}, () => {
        throw boom;
      });
      expect(thrown).toBeInstanceOf(Promise);
      await expect(thrown).rejects.toBe(boom);
      return got;
    });
    expect(value).toBe('later');
    expect(t.span('thenable').status.code).toBe(SpanStatusCode.OK);
    expect(t.span('throws').status.code).toBe(SpanStatusCode.ERROR);
  });

  it('propagates errors unchanged and marks the span ERROR with error.type', async () => {
    const t = inMemoryTelltale();
    const { run, tool } = t.telltale;
    class RateLimitError extends Error {}
    const rateLimited = new RateLimitError('429 from search');
    const timeout = Object.assign(new Error('socket timed out'), { code: 'ETIMEDOUT' });

    await expect(tool('search', {}, () => Promise.reject(rateLimited))).rejects.toBe(rateLimited);
    await expect(
      run('agent', () => {
        throw timeout;
      }),
    ).rejects.toBe(timeout);
    await expect(tool('weird', {}, () => Promise.reject(new TypeError('bad')))).rejects.toBeInstanceOf(TypeError);

    const s = t.span('search');
    expect(s.status).toEqual({ code: SpanStatusCode.ERROR, message: '429 from search' });
    expect(attr(s, OtelAttr.errorType)).toBe('RateLimitError');
    expect(s.events[0]?.name).toBe('exception');
    expect(s.events[0]?.attributes?.[OtelAttr.exceptionMessage]).toBe('429 from search');
    const root = t.span('agent');
    expect(root.status.code).toBe(SpanStatusCode.ERROR);
    expect(attr(root, OtelAttr.errorType)).toBe('ETIMEDOUT');
    expect(attr(root, TelltaleAttr.runOutcome)).toBe('failure');
    expect(attr(t.span('weird'), OtelAttr.errorType)).toBe('TypeError');
  });

  it('lets the agent declare a failed run without throwing', async () => {
    const t = inMemoryTelltale();
    const { run } = t.telltale;
    const value = await run('agent', (r) => {
      r.setOutcome('failure', 'answer rejected by user');
      return 'done';
    });
    expect(value).toBe('done');
    const root = t.span('agent');
    expect(root.status).toEqual({ code: SpanStatusCode.ERROR, message: 'answer rejected by user' });
    expect(attr(root, TelltaleAttr.runOutcome)).toBe('failure');
  });

  it('fails a validate step when its check throws, not when it returns false (the README idiom)', async () => {
    class PolicyViolation extends Error {}
    const t = inMemoryTelltale();
    const { run, validate } = t.telltale;
    await run('agent', async (r) => {
      expect(await validate('returns-false', () => false)).toBe(false);
      const ok = await validate('throws', () => {
        throw new PolicyViolation('no refunds over $500');
      }).catch((err: unknown) => {
        if (err instanceof PolicyViolation) return false;
        throw err;
      });
      if (!ok) r.setOutcome('failure', 'policy check failed');
    });
    expect(t.span('returns-false').status.code).toBe(SpanStatusCode.OK);
    const failed = t.span('throws');
    expect(failed.status).toEqual({ code: SpanStatusCode.ERROR, message: 'no refunds over $500' });
    expect(attr(failed, OtelAttr.errorType)).toBe('PolicyViolation');
    expect(attr(t.span('agent'), TelltaleAttr.runOutcome)).toBe('failure');
  });

  it('keeps concurrent runs apart', async () => {
    const t = inMemoryTelltale();
    const { run, tool } = t.telltale;
    const agent = (name: string, delayMs: number) =>
      run(name, async (r) => {
        await tool('wait', { delayMs }, () => new Promise((res) => setTimeout(res, delayMs)));
        await tool('after', {}, () => 1);
        return r.runId;
      });
    const [a, b] = await Promise.all([agent('a', 15), agent('b', 5)]);
    expect(a).not.toBe(b);
    const byRun = (id: string) => t.spans().filter((s) => runIdOf(s) === id);
    expect(byRun(a)).toHaveLength(3);
    expect(byRun(b)).toHaveLength(3);
    for (const s of byRun(a)) expect(s.spanContext().traceId).toBe(t.span('a').spanContext().traceId);
  });

  it('takes span times from a given clock', async () => {
    const t = inMemoryTelltale();
    let now = Date.UTC(2026, 0, 1);
    const { run, llm } = createTelltale({ tracerProvider: t.provider, clock: () => now });
    await run('agent', async () => {
      now += 100;
      await llm('draft', { model: 'gpt-4o-mini' }, () => {
        now += 1500;
      });
      now += 50;
    });
    const toMs = ([s, ns]: [number, number]): number => s * 1000 + ns / 1e6;
    expect(toMs(t.span('draft').startTime) - Date.UTC(2026, 0, 1)).toBe(100);
    expect(toMs(t.span('draft').duration)).toBe(1500);
    expect(toMs(t.span('agent').duration)).toBe(1650);
  });

  it('uses a given run id', async () => {
    const t = inMemoryTelltale();
    await t.telltale.run('agent', (r) => expect(r.runId).toBe('run-42'), { runId: 'run-42' });
    expect(runIdOf(t.span('agent'))).toBe('run-42');
  });
});
