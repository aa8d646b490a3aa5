import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OtelAttr, TelltaleAttr } from '@telltale/semconv';
import { describe, expect, it } from 'vitest';
import { createTelltale } from './createTelltale.js';
import { createTracerProvider } from './createTracerProvider.js';
import { attr, inMemoryTelltale } from './testing/inMemoryTelltale.js';
import { redactApiKeys } from './redactors.js';

const PLANTED_KEY = 'sk-proj-AbCdEfGhIjKlMnOpQrStUvWx0123456789';

describe('content capture', () => {
  it('exports tool arguments and results with a planted API key removed from the OTLP bytes', async () => {
    const bodies: Buffer[] = [];
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        bodies.push(Buffer.concat(chunks));
        res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const provider = createTracerProvider({ service: 'svc', endpoint: `http://127.0.0.1:${port}/` });
      const t = createTelltale({ tracerProvider: provider, capture: 'full' });
      await t.run('agent', async (r) => {
        await t.tool('fetch', { url: 'https://x.test', headers: { authorization: `key ${PLANTED_KEY}` } }, () => ({
          echoed: `api_key=${PLANTED_KEY}`,
          contact: 'jane.doe@example.com',
        }));
        await t.llm('draft', { model: 'm' }, (s) => {
          s.recordInput([{ role: 'user', content: `use ${PLANTED_KEY} please` }]);
          s.recordOutput('done');
        });
        return r.runId;
      });
      await provider.shutdown();
      const all = Buffer.concat(bodies);
      expect(all.length).toBeGreaterThan(0);
      expect(all.includes(PLANTED_KEY)).toBe(false);
      expect(all.includes('jane.doe@example.com')).toBe(false);
      expect(all.includes('[REDACTED:api_key]')).toBe(true);
      expect(all.includes('[REDACTED:email]')).toBe(true);
      expect(all.includes(OtelAttr.genAiToolCallArguments)).toBe(true);
      expect(all.includes(OtelAttr.genAiToolCallResult)).toBe(true);
      expect(all.includes(OtelAttr.genAiInputMessages)).toBe(true);
      expect(all.includes('https://x.test')).toBe(true);
    } finally {
      server.close();
    }
  });

  it('captures nothing by default, and the hashes do not depend on capture', async () => {
    const plain = inMemoryTelltale();
    await plain.telltale.tool('search', { q: 'refund' }, () => ['a']);
    const s = plain.span('search');
    expect(attr(s, OtelAttr.genAiToolCallArguments)).toBeUndefined();
    expect(attr(s, OtelAttr.genAiToolCallResult)).toBeUndefined();
    expect(attr(s, TelltaleAttr.contentCapture)).toBeUndefined();

    const full = inMemoryTelltale();
    const t = createTelltale({ tracerProvider: full.provider, capture: 'full' });
    await t.tool('search', { q: 'refund' }, () => ['a']);
    const f = full.span('search');
    expect(JSON.parse(attr(f, OtelAttr.genAiToolCallArguments) as string)).toEqual({ q: 'refund' });
    expect(JSON.parse(attr(f, OtelAttr.genAiToolCallResult) as string)).toEqual(['a']);
    expect(attr(f, TelltaleAttr.contentCapture)).toBe('full');
    expect(attr(f, TelltaleAttr.toolArgsHash)).toBe(attr(s, TelltaleAttr.toolArgsHash));
  });

  it('records model messages in the GenAI shape, with the per-step mode winning', async () => {
    const mem = inMemoryTelltale();
    const t = createTelltale({ tracerProvider: mem.provider, capture: 'none' });
    await t.llm(
      'answer',
      { model: 'gpt-4o-mini' },
      (step) => {
        step.recordInput([
          { role: 'system', content: 'be brief' },
          { role: 'user', content: [{ type: 'text', text: 'hi' }] },
        ]);
        step.recordOutput({ role: 'assistant', content: 'hello', finish_reason: 'stop' });
      },
      { capture: 'full' },
    );
    const s = mem.span('answer');
    expect(JSON.parse(attr(s, OtelAttr.genAiInputMessages) as string)).toEqual([
      { role: 'system', parts: [{ type: 'text', content: 'be brief' }] },
      { role: 'user', parts: [{ type: 'text', content: 'hi' }] },
    ]);
    expect(JSON.parse(attr(s, OtelAttr.genAiOutputMessages) as string)).toEqual([
      { role: 'assistant', parts: [{ type: 'text', content: 'hello' }], finish_reason: 'stop' },
    ]);
  });

  it('keeps only the shape under metadata, and records other steps as telltale.content.*', async () => {
    const mem = inMemoryTelltale();
    const t = createTelltale({ tracerProvider: mem.provider, capture: 'metadata' });
    await t.plan('plan', (step) => {
      step.recordInput({ goal: 'refund order 7' });
      return { steps: ['a', 'bcd'] };
    });
    const s = mem.span('plan');
    expect(JSON.parse(attr(s, TelltaleAttr.contentInput) as string)).toEqual({ goal: '[14 chars]' });
    expect(JSON.parse(attr(s, TelltaleAttr.contentOutput) as string)).toEqual({ steps: ['[1 chars]', '[3 chars]'] });
    expect(attr(s, TelltaleAttr.contentCapture)).toBe('metadata');
  });

  it('records the state a step saw as its input, unless the step records its own', async () => {
    const mem = inMemoryTelltale();
    const t = createTelltale({ tracerProvider: mem.provider, capture: 'full' });
    const state = { goal: 'refund order 7', tries: 2 };
    await t.plan('given', () => 'next', { state });
    await t.validate('own', (step) => step.recordInput({ checked: 'draft' }), { state });
    await t.act('stateless', () => 'done');
    await t.retry('retried', () => 'ok', { attempts: 2, kind: 'plan', state });
    expect(JSON.parse(attr(mem.span('given'), TelltaleAttr.contentInput) as string)).toEqual(state);
    expect(attr(mem.span('given'), TelltaleAttr.contentOutput)).toBe('next');
    expect(JSON.parse(attr(mem.span('own'), TelltaleAttr.contentInput) as string)).toEqual({ checked: 'draft' });
    expect(attr(mem.span('stateless'), TelltaleAttr.contentInput)).toBeUndefined();
    expect(JSON.parse(attr(mem.span('retried'), TelltaleAttr.contentInput) as string)).toEqual(state);
    // the hash is the state's whatever the capture, and nothing is recorded without it
    const plain = inMemoryTelltale();
    await plain.telltale.plan('given', () => 'next', { state });
    expect(attr(plain.span('given'), TelltaleAttr.contentInput)).toBeUndefined();
    expect(attr(plain.span('given'), TelltaleAttr.stateHash)).toBe(attr(mem.span('given'), TelltaleAttr.stateHash));
  });

  it('runs user redactors after the built-in ones, and `redact: false` turns all off', async () => {
    const mem = inMemoryTelltale();
    const custom = createTelltale({
      tracerProvider: mem.provider,
      capture: 'full',
      redact: (text) => text.replace(/order-\d+/g, 'order-?'),
    });
    await custom.act('one', () => `order-42 by bob@corp.example`);
    expect(attr(mem.span('one'), TelltaleAttr.contentOutput)).toBe('order-? by [REDACTED:email]');
    expect(attr(mem.span('one'), TelltaleAttr.contentRedactions)).toBe(1);
    const raw = createTelltale({ tracerProvider: mem.provider, capture: 'full', redact: false });
    await raw.act('two', () => `order-42 by bob@corp.example`);
    expect(attr(mem.span('two'), TelltaleAttr.contentOutput)).toBe('order-42 by bob@corp.example');
  });

  it('counts the strings redacted on both sides of a step, a side recorded again replacing its own', async () => {
    const mem = inMemoryTelltale();
    const t = createTelltale({ tracerProvider: mem.provider, capture: 'full' });
    await t.tool('mail', { to: 'a@corp.example', cc: 'b@corp.example', key: PLANTED_KEY }, () => ({
      sent: 'c@corp.example',
      bcc: 'd@corp.example',
    }));
    expect(attr(mem.span('mail'), TelltaleAttr.contentRedactions)).toBe(5);
    await t.llm('draft', { model: 'm' }, (s) => {
      s.recordInput([
        { role: 'user', content: 'x@corp.example' },
        { role: 'user', content: PLANTED_KEY },
      ]);
      s.recordOutput('to y@corp.example');
      s.recordInput('nothing secret');
    });
    expect(attr(mem.span('draft'), TelltaleAttr.contentRedactions)).toBe(1);
    await t.act('plain', () => 'nothing secret', { state: { owner: 'z@corp.example' } });
    expect(attr(mem.span('plain'), TelltaleAttr.contentRedactions)).toBe(1);
  });

  it('survives cyclic values and never throws into the step', async () => {
    const mem = inMemoryTelltale();
    const t = createTelltale({ tracerProvider: mem.provider, capture: 'full' });
    const cyclic: Record<string, unknown> = { n: 1n };
    cyclic.self = cyclic;
    await expect(t.tool('c', cyclic, () => 'ok')).resolves.toBe('ok');
    expect(JSON.parse(attr(mem.span('c'), OtelAttr.genAiToolCallArguments) as string)).toEqual({ n: '1', self: '[…]' });
    expect(redactApiKeys('x')).toBe('x');
  });
});
