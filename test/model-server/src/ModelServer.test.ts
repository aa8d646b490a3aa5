import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ModelServer } from './ModelServer.js';
import { chatUsage, loadScenarios } from './recording.js';

let server: ModelServer;
beforeAll(async () => {
  server = await ModelServer.start();
});
afterAll(() => server.stop());

const post = (path: string, body: unknown) =>
  fetch(`${server.origin}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

const user = (content: string) => ({ role: 'user', content });
const assistant = { role: 'assistant', content: null };

describe('ModelServer', () => {
  it('answers a recorded conversation turn by turn, by the assistant messages so far', async () => {
    const first = (await (await post('/v1/chat/completions', { messages: [user('refund ORD-2002')] })).json()) as {
      choices: { message: { tool_calls: { function: { name: string } }[] } }[];
    };
    expect(first.choices[0]!.message.tool_calls[0]!.function.name).toBe('lookup_order');
    const third = (await (
      await post('/v1/chat/completions', { messages: [user('refund ORD-2002'), assistant, assistant] })
    ).json()) as { choices: { message: { content: string } }[] };
    expect(third.choices[0]!.message.content).toContain('refunded order ORD-2002');
    const past = await post('/v1/chat/completions', {
      messages: [user('refund ORD-2002'), assistant, assistant, assistant],
    });
    expect(past.status).toBe(404);
    expect(server.requests.map((r) => r.turn)).toEqual([0, 2]);
  });

  it('repeats the last turn of a looping scenario', async () => {
    const res = await post('/v1/chat/completions', { messages: [user('ORD-4004'), ...Array(7).fill(assistant)] });
    expect(res.status).toBe(200);
  });

  it('streams a recorded tool call as chunks, with the usage chunk when asked', async () => {
    const res = await post('/v1/chat/completions', {
      stream: true,
      stream_options: { include_usage: true },
      messages: [user('where is ORD-1001')],
    });
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const events = (await res.text())
      .split('\n\n')
      .filter((e) => e.startsWith('data: '))
      .map((e) => e.slice('data: '.length));
    expect(events.at(-1)).toBe('[DONE]');
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e) as Record<string, unknown>);
    const args = chunks
      .flatMap((c) => (c.choices as { delta: { tool_calls?: { function?: { arguments?: string } }[] } }[]) ?? [])
      .flatMap((c) => c.delta.tool_calls ?? [])
      .map((t) => t.function?.arguments ?? '')
      .join('');
    expect(JSON.parse(args)).toEqual({ orderId: 'ORD-1001' });
    const where = loadScenarios().find((s) => s.name === 'support/where-is-order')!;
    expect(chunks.at(-1)!.usage).toMatchObject({ prompt_tokens: chatUsage(where.turns[0]!).prompt_tokens });
  });

  it('answers a recorded 429, the single recordings, and precise errors for bad requests', async () => {
    expect((await post('/v1/chat/completions', { messages: [user('ORD-6006'), assistant] })).status).toBe(429);
    expect((await post('/v1/messages', { model: 'claude', messages: [] })).status).toBe(200);
    expect((await post('/v1/responses', { model: 'gpt-4o-mini', input: 'hi' })).status).toBe(200);
    const bad = await post('/v1/chat/completions', '{not json');
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: { message: 'the request body is not a JSON object' } });
    expect((await post('/v1/embeddings', {})).status).toBe(404);
  });
});
