/** What one llm span carries as content: the GenAI message attributes' JSON strings. */
export interface LlmContent {
  /** `gen_ai.input.messages`: system instructions, the user's request, a tool call and its result. */
  input: string;
  /** `gen_ai.output.messages`: the assistant's answer. */
  output: string;
}

const WORDS = (
  'the order customer refund policy account ticket invoice shipping address please check whether this ' +
  'request was already handled and reply with a short summary of what changed since the last message ' +
  'include the amount currency date status and any tool results that support the answer do not invent ' +
  'numbers if the lookup failed say so and suggest the next step for the support agent escalate when ' +
  'the customer asks for a manager or the refund exceeds the limit table rows query returned matching ' +
  'records for region europe north america pending approved rejected delivered delayed warehouse'
).split(' ');

/** Prose of about `bytes` characters (ASCII), from a word list; `next` gives numbers in [0, 1). */
function prose(next: () => number, bytes: number): string {
  const parts: string[] = [];
  let length = 0;
  while (length < bytes) {
    const word = WORDS[Math.floor(next() * WORDS.length)] ?? 'the';
    // numbers, as real prompts carry ids and amounts
    const token = next() < 0.08 ? `${word} #${Math.floor(next() * 1e6)}` : word;
    parts.push(token);
    length += token.length + 1;
  }
  return parts.join(' ').slice(0, Math.max(0, bytes));
}

const text = (content: string): { type: 'text'; content: string } => ({ type: 'text', content });

/**
 * Content of about `bytes` bytes in all (the two JSON strings together) in the
 * OpenTelemetry GenAI message shape: input is a system message, a user
 * request, an assistant tool call and the tool's result; output is the
 * assistant's answer. About three quarters of the bytes are input.
 */
export function llmContent(next: () => number, bytes: number, tool: string): LlmContent {
  const overhead = 420; // the JSON framing of the five messages, roughly
  const body = Math.max(40, bytes - overhead);
  const share = (f: number): number => Math.max(8, Math.floor(body * f));
  const callId = `call_${Math.floor(next() * 1e9).toString(36)}`;
  const input = JSON.stringify([
    { role: 'system', parts: [text(`You are a support agent. ${prose(next, share(0.22))}`)] },
    { role: 'user', parts: [text(prose(next, share(0.18)))] },
    {
      role: 'assistant',
      parts: [{ type: 'tool_call', id: callId, name: tool, arguments: { query: prose(next, share(0.05)) } }],
    },
    { role: 'tool', parts: [{ type: 'tool_call_response', id: callId, response: prose(next, share(0.3)) }] },
  ]);
  const output = JSON.stringify([
    { role: 'assistant', parts: [text(prose(next, share(0.25)))], finish_reason: 'stop' },
  ]);
  return { input, output };
}
