import type OpenAI from 'openai';
import type {
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionCreateParams,
} from 'openai/resources/chat/completions';
import type { Response, ResponseCreateParams, ResponseStreamEvent } from 'openai/resources/responses/responses';
import type { LlmCall, LlmInstrumentOptions } from '../llm/LlmCall.js';
import { instrumentLlmClient, recordSettled } from '../llm/instrumentLlmClient.js';
import { failOrAbandon } from '../llm/failOrAbandon.js';
import { observeIterable } from '../llm/observeIterable.js';
import { chatUsage, responsesUsage } from './openAiUsage.js';

export interface InstrumentOpenAIOptions extends LlmInstrumentOptions {
  /** `gen_ai.provider.name` (default `openai`; set it for OpenAI-compatible servers). */
  provider?: string;
  /** Patch the client in place instead of returning a proxy (the client is then changed for every caller). */
  patch?: boolean;
}

/**
 * Records every `chat.completions.create` and `responses.create` call of an
 * `openai` client as a Telltale llm step: model, usage (cached and reasoning
 * tokens included), finish reasons and, for streams, the time to first token.
 * Returns a proxy: the client you pass is left alone unless `patch: true`.
 */
export function instrumentOpenAI<C extends OpenAI>(client: C, options: InstrumentOpenAIOptions = {}): C {
  return instrumentLlmClient(
    client,
    'openai',
    { 'chat.completions.create': createChat, 'responses.create': createResponse },
    options,
  );
}

function createChat(call: LlmCall, body: unknown, send: (body: unknown) => unknown): unknown {
  const params = body as ChatCompletionCreateParams;
  call.input(params.messages);
  const streaming = params.stream === true;
  // usage comes in a last, choice-less chunk only when asked for; ask, and hide that chunk if the caller did not
  const hideUsageChunk = streaming && params.stream_options?.include_usage !== true;
  const sent = hideUsageChunk
    ? { ...params, stream_options: { ...params.stream_options, include_usage: true } }
    : params;
  return recordSettled(send(sent) as PromiseLike<unknown>, call, (result) =>
    streaming
      ? observeChatStream(result as AsyncIterable<ChatCompletionChunk>, call, hideUsageChunk)
      : recordChat(result as ChatCompletion, call),
  );
}

function recordChat(res: ChatCompletion, call: LlmCall): void {
  call.output(
    res.choices.map((c) => ({
      role: c.message.role,
      content: c.message.content ?? '',
      ...(c.message.tool_calls === undefined ? {} : { tool_calls: c.message.tool_calls }),
      finish_reason: c.finish_reason,
    })),
  );
  call.response({
    model: res.model,
    id: res.id,
    finishReasons: res.choices.map((c) => c.finish_reason),
    usage: chatUsage(res.usage),
  });
  call.finish();
}

function observeChatStream(stream: AsyncIterable<ChatCompletionChunk>, call: LlmCall, hideUsageChunk: boolean): void {
  const reasons: string[] = [];
  const answers = new StreamedChoices();
  let model: string | undefined;
  let id: string | undefined;
  let usage: ChatCompletionChunk['usage'];
  const record = (): void => {
    call.output(answers.messages(reasons));
    call.response({ model, id, finishReasons: reasons, usage: chatUsage(usage) });
  };
  observeIterable(stream, {
    item: (chunk) => {
      model ??= chunk.model;
      id ??= chunk.id;
      if (chunk.usage) usage = chunk.usage;
      for (const c of chunk.choices) {
        if (c.finish_reason) reasons[c.index] = c.finish_reason;
        answers.add(c);
        const d = c.delta as { content?: string | null; refusal?: string | null; tool_calls?: unknown[] } | undefined;
        if (d && ((d.content ?? '') !== '' || (d.refusal ?? '') !== '' || (d.tool_calls?.length ?? 0) > 0))
          call.firstChunk();
      }
      return !(hideUsageChunk && chunk.choices.length === 0 && chunk.usage);
    },
    done: () => {
      record();
      if (aborted(stream) && usage === undefined) call.abandon();
      else call.finish();
    },
    ...failOrAbandon(call, record),
  });
}

type StreamedToolCall = { id?: string; type?: string; function: { name: string; arguments: string } };

/** The answer of each choice of a chat stream, put together from its deltas as far as read. */
class StreamedChoices {
  private readonly choices: { role: string; content: string; toolCalls: StreamedToolCall[] }[] = [];

  add(c: ChatCompletionChunk['choices'][number]): void {
    const at = (this.choices[c.index] ??= { role: 'assistant', content: '', toolCalls: [] });
    const d = c.delta;
    if (d.role) at.role = d.role;
    if (d.content) at.content += d.content;
    for (const t of d.tool_calls ?? []) {
      const call = (at.toolCalls[t.index] ??= { function: { name: '', arguments: '' } });
      if (t.id) call.id = t.id;
      if (t.type) call.type = t.type;
      if (t.function?.name) call.function.name += t.function.name;
      if (t.function?.arguments) call.function.arguments += t.function.arguments;
    }
  }

  /** The answers as a non-streamed completion's messages. */
  messages(reasons: readonly string[]): unknown[] {
    return this.choices.flatMap((c, i) =>
      c === undefined
        ? []
        : [
            {
              role: c.role,
              content: c.content,
              ...(c.toolCalls.length === 0 ? {} : { tool_calls: c.toolCalls.filter((t) => t !== undefined) }),
              ...(reasons[i] === undefined ? {} : { finish_reason: reasons[i] }),
            },
          ],
    );
  }
}

function createResponse(call: LlmCall, body: unknown, send: () => unknown): unknown {
  const params = body as ResponseCreateParams;
  call.input(
    params.instructions === undefined || params.instructions === null
      ? params.input
      : [
          { role: 'system', content: params.instructions },
          ...(Array.isArray(params.input) ? params.input : [params.input]),
        ],
  );
  const streaming = params.stream === true;
  return recordSettled(send() as PromiseLike<unknown>, call, (result) =>
    streaming
      ? observeResponseStream(result as AsyncIterable<ResponseStreamEvent>, call)
      : endWithResponse(result as Response, call),
  );
}

function recordResponse(res: Response, call: LlmCall): void {
  call.response({
    model: res.model,
    id: res.id,
    finishReasons: [res.status === 'incomplete' ? (res.incomplete_details?.reason ?? 'incomplete') : res.status],
    usage: responsesUsage(res.usage),
  });
}

function endWithResponse(res: Response, call: LlmCall): void {
  call.output([{ role: 'assistant', content: res.output_text }]);
  recordResponse(res, call);
  if (res.status === 'failed') call.fail(responseFailure(res));
  else call.finish();
}

function responseFailure(res: Response): Error {
  const e = res.error;
  return Object.assign(new Error(e?.message ?? 'response failed'), {
    name: 'ResponseFailedError',
    code: e?.code ?? 'response_failed',
  });
}

function observeResponseStream(stream: AsyncIterable<ResponseStreamEvent>, call: LlmCall): void {
  let last: Response | undefined;
  observeIterable(stream, {
    item: (event) => {
      if (event.type.endsWith('.delta')) call.firstChunk();
      if ('response' in event && typeof event.response === 'object' && event.response !== null) last = event.response;
      return true;
    },
    done: () => {
      if (last === undefined) return call.abandon();
      if (last.status === 'in_progress' || last.status === 'queued') {
        recordResponse(last, call);
        return call.abandon();
      }
      endWithResponse(last, call);
    },
    ...failOrAbandon(call, () => {
      if (last) recordResponse(last, call);
    }),
  });
}

function aborted(stream: unknown): boolean {
  const signal = (stream as { controller?: { signal?: { aborted?: boolean } } }).controller?.signal;
  return signal?.aborted === true;
}
