interface ChatCompletion {
  id: string;
  created: number;
  model: string;
  system_fingerprint?: string;
  choices: {
    index: number;
    finish_reason: string;
    message: {
      role: string;
      content: string | null;
      tool_calls?: { id: string; type: string; function: { name: string; arguments: string } }[];
    };
  }[];
  usage?: unknown;
}

/**
 * The server-sent events OpenAI streams for a chat completion, derived from
 * the recorded JSON answer: a role chunk, the content in word-sized pieces,
 * each tool call (name first, then its arguments in two pieces), the finish
 * reason, a usage chunk (`stream_options.include_usage`) and `[DONE]`.
 */
export function chatChunks(completion: unknown, includeUsage: boolean): { data: unknown }[] {
  const c = completion as ChatCompletion;
  const head = { id: c.id, object: 'chat.completion.chunk', created: c.created, model: c.model };
  const chunk = (choices: unknown[], usage: unknown = null) => ({
    data: { ...head, system_fingerprint: c.system_fingerprint, choices, usage },
  });
  const out: { data: unknown }[] = [];
  for (const choice of c.choices) {
    const { index, message } = choice;
    const delta = (d: Record<string, unknown>, finish: string | null = null) =>
      chunk([{ index, delta: d, logprobs: null, finish_reason: finish }]);
    out.push(delta({ role: message.role, content: '', refusal: null }));
    for (const piece of (message.content ?? '').match(/\S+\s*|\s+/g) ?? []) out.push(delta({ content: piece }));
    (message.tool_calls ?? []).forEach((call, i) => {
      const args = call.function.arguments;
      const cut = Math.floor(args.length / 2);
      out.push(
        delta({
          tool_calls: [
            { index: i, id: call.id, type: call.type, function: { name: call.function.name, arguments: '' } },
          ],
        }),
      );
      for (const part of [args.slice(0, cut), args.slice(cut)])
        if (part !== '') out.push(delta({ tool_calls: [{ index: i, function: { arguments: part } }] }));
    });
    out.push(delta({}, choice.finish_reason));
  }
  if (includeUsage && c.usage !== undefined) out.push(chunk([], c.usage));
  out.push({ data: '[DONE]' });
  return out;
}
