import { chatChunks } from './chatChunks.js';
import { recording } from './recording.js';
import type { LlmRecording, Scenario } from './recording.js';

/** The model name that makes the server answer 429 with the provider's rate-limit body. */
export const RATE_LIMITED_MODEL = 'rate-limited';

const ROUTES: Readonly<Record<string, { fixture: string; provider: 'openai' | 'anthropic' }>> = {
  '/v1/chat/completions': { fixture: 'openai-chat', provider: 'openai' },
  '/v1/responses': { fixture: 'openai-responses', provider: 'openai' },
  '/v1/messages': { fixture: 'anthropic-messages', provider: 'anthropic' },
};

/** The answer to one request, or why there is none. */
export type Answer = { recording: LlmRecording; scenario?: string; turn?: number } | { notFound: string };

type Message = { role?: unknown; content?: unknown };

function text(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content
      .map((p) => (typeof (p as { text?: unknown }).text === 'string' ? (p as { text: string }).text : ''))
      .join(' ');
  return '';
}

function messagesOf(body: Record<string, unknown>): Message[] {
  if (Array.isArray(body.messages)) return body.messages as Message[];
  if (Array.isArray(body.input)) return body.input as Message[];
  if (typeof body.input === 'string') return [{ role: 'user', content: body.input }];
  return [];
}

/** A non-streamed chat request offering tools, before any tool result: answered with a tool call. */
function wantsToolCall(path: string, body: Record<string, unknown>, messages: Message[]): boolean {
  if (path !== '/v1/chat/completions' || body.stream === true || !Array.isArray(body.tools)) return false;
  return !messages.some((m) => m.role === 'tool');
}

function scenarioAnswer(scenario: Scenario, turn: number, stream: boolean, includeUsage: boolean): Answer {
  const rec = scenario.turns[Math.min(turn, scenario.turns.length - 1)];
  if (rec === undefined || (turn >= scenario.turns.length && !scenario.repeatLast))
    return {
      notFound: `scenario ${scenario.name} has ${scenario.turns.length} turns; the request is turn ${turn + 1}`,
    };
  if (!stream || rec.events !== undefined || rec.status !== 200)
    return { recording: rec, scenario: scenario.name, turn };
  return {
    recording: { status: 200, events: chatChunks(rec.body, includeUsage) },
    scenario: scenario.name,
    turn,
  };
}

/**
 * Which recording answers a request. In order: the rate-limited model gets
 * the provider's 429; a chat completion whose first user message contains a
 * scenario's `match` gets that scenario's answer for its turn (the number of
 * assistant messages so far), streamed as chunks when asked; otherwise the
 * route's single recording (JSON, or its `.sse` twin for `stream: true`).
 */
export function chooseAnswer(path: string, body: Record<string, unknown>, scenarios: readonly Scenario[]): Answer {
  const route = ROUTES[path];
  if (route === undefined) return { notFound: `no such route: ${path}` };
  if (body.model === RATE_LIMITED_MODEL) return { recording: recording(`${route.provider}-429`) };
  const messages = messagesOf(body);
  const stream = body.stream === true;
  if (path === '/v1/chat/completions') {
    const first = text(messages.find((m) => m.role === 'user')?.content);
    const scenario = scenarios.find((s) => first.includes(s.match));
    if (scenario !== undefined) {
      const turn = messages.filter((m) => m.role === 'assistant').length;
      const includeUsage = (body.stream_options as { include_usage?: unknown } | undefined)?.include_usage === true;
      return scenarioAnswer(scenario, turn, stream, includeUsage);
    }
  }
  if (wantsToolCall(path, body, messages)) return { recording: recording('openai-chat-tool') };
  return { recording: recording(stream ? `${route.fixture}.sse` : route.fixture) };
}
