import type Anthropic from '@anthropic-ai/sdk';
import type {
  ContentBlock,
  Message,
  MessageCreateParams,
  RawMessageStreamEvent,
} from '@anthropic-ai/sdk/resources/messages';
import type { MessageStream } from '@anthropic-ai/sdk/lib/MessageStream';
import type { LlmCall, LlmInstrumentOptions } from '../llm/LlmCall.js';
import { instrumentLlmClient, recordSettled } from '../llm/instrumentLlmClient.js';
import { failOrAbandon } from '../llm/failOrAbandon.js';
import { observeIterable } from '../llm/observeIterable.js';
import { anthropicUsage } from './anthropicUsage.js';

export interface InstrumentAnthropicOptions extends LlmInstrumentOptions {
  /** `gen_ai.provider.name` (default `anthropic`). */
  provider?: string;
  /** Patch the client in place instead of returning a proxy (the client is then changed for every caller). */
  patch?: boolean;
}

/**
 * Records every `messages.create` (streamed or not) and `messages.stream`
 * call of an `@anthropic-ai/sdk` client as a Telltale llm step. Returns a
 * proxy: the client you pass is left alone unless `patch: true`.
 */
export function instrumentAnthropic<C extends Anthropic>(client: C, options: InstrumentAnthropicOptions = {}): C {
  return instrumentLlmClient(client, 'anthropic', { 'messages.create': create, 'messages.stream': stream }, options);
}

/** The messages sent; the system prompt travels apart from them: recorded as the first, system, message. */
function recordInput(call: LlmCall, params: MessageCreateParams): void {
  call.input(
    params.system === undefined ? params.messages : [{ role: 'system', content: params.system }, ...params.messages],
  );
}

function create(call: LlmCall, body: unknown, send: () => unknown): unknown {
  const params = body as MessageCreateParams;
  recordInput(call, params);
  return recordSettled(send() as PromiseLike<unknown>, call, (result) =>
    params.stream === true
      ? observeEvents(result as AsyncIterable<RawMessageStreamEvent>, call)
      : endWithMessage(result as Message, call),
  );
}

function recordMessage(m: Pick<Message, 'model' | 'id' | 'stop_reason' | 'usage'>, call: LlmCall): void {
  call.response({ model: m.model, id: m.id, finishReasons: [m.stop_reason], usage: anthropicUsage(m.usage) });
}

function endWithMessage(m: Message, call: LlmCall): void {
  call.output([{ role: m.role, content: m.content, finish_reason: m.stop_reason ?? undefined }]);
  recordMessage(m, call);
  call.finish();
}

/**
 * Raw events of `messages.create({ stream: true })`: usage starts in
 * message_start and grows in message_delta; the answer's content blocks
 * (text, tool calls) are put together from their deltas, as far as read.
 */
function observeEvents(events: AsyncIterable<RawMessageStreamEvent>, call: LlmCall): void {
  let snapshot: Pick<Message, 'model' | 'id' | 'stop_reason' | 'usage'> | undefined;
  let complete = false;
  const blocks = new StreamedBlocks();
  const record = (): void => {
    if (!snapshot) return;
    call.output([{ role: 'assistant', content: blocks.content(), finish_reason: snapshot.stop_reason ?? undefined }]);
    recordMessage(snapshot, call);
  };
  observeIterable(events, {
    item: (event) => {
      if (event.type === 'message_start') {
        const { model, id, stop_reason, usage } = event.message;
        snapshot = { model, id, stop_reason, usage: { ...usage } };
      } else if (event.type === 'content_block_start') blocks.start(event.index, event.content_block);
      else if (event.type === 'content_block_delta') {
        call.firstChunk();
        blocks.delta(event.index, event.delta);
      } else if (event.type === 'message_delta' && snapshot) {
        snapshot.stop_reason = event.delta.stop_reason ?? snapshot.stop_reason;
        const u = event.usage;
        snapshot.usage.output_tokens = u.output_tokens;
        if (u.input_tokens != null) snapshot.usage.input_tokens = u.input_tokens;
        if (u.cache_read_input_tokens != null) snapshot.usage.cache_read_input_tokens = u.cache_read_input_tokens;
        if (u.cache_creation_input_tokens != null)
          snapshot.usage.cache_creation_input_tokens = u.cache_creation_input_tokens;
      } else if (event.type === 'message_stop') complete = true;
      return true;
    },
    done: () => {
      record();
      if (complete) call.finish();
      else call.abandon();
    },
    ...failOrAbandon(call, record),
  });
}

/** The content blocks of a streamed answer, from their start and delta events. */
class StreamedBlocks {
  private readonly blocks: { block: ContentBlock; json: string }[] = [];

  start(index: number, block: ContentBlock): void {
    this.blocks[index] = { block: { ...block }, json: '' };
  }

  delta(index: number, delta: Extract<RawMessageStreamEvent, { type: 'content_block_delta' }>['delta']): void {
    const at = this.blocks[index];
    if (at === undefined) return;
    if (delta.type === 'text_delta' && at.block.type === 'text') at.block.text += delta.text;
    else if (delta.type === 'input_json_delta') at.json += delta.partial_json;
  }

  /** The blocks as a message holds them; a tool call's input parsed once whole (as sent while it is not). */
  content(): unknown[] {
    return this.blocks
      .filter((b) => b !== undefined)
      .map(({ block, json }) =>
        block.type === 'tool_use' && json !== '' ? { ...block, input: parsedOr(json) } : block,
      );
  }
}

function parsedOr(json: string): unknown {
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return json;
  }
}

/** `messages.stream()`: a MessageStream, returned at once; its events tell how it ends. */
function stream(call: LlmCall, body: unknown, send: () => unknown): unknown {
  recordInput(call, body as MessageCreateParams);
  const ms = send() as MessageStream;
  ms.on('streamEvent', (event) => {
    if (event.type === 'content_block_delta') call.firstChunk();
  });
  ms.on('finalMessage', (message) => endWithMessage(message, call));
  ms.on('error', (err) => {
    recordPartial(ms, call);
    call.fail(err);
  });
  // the caller broke out of the loop (which aborts) or aborted it
  ms.on('abort', () => {
    recordPartial(ms, call);
    call.abandon();
  });
  ms.on('end', () => call.finish());
  return ms;
}

function recordPartial(ms: MessageStream, call: LlmCall): void {
  try {
    recordMessage(ms.currentMessage ?? ({} as Message), call);
  } catch {
    // no message yet
  }
}
