import { defaultTelltale } from '../defaultTelltale.js';
import { LlmCall } from './LlmCall.js';
import type { LlmInstrumentOptions } from './LlmCall.js';
import { patchMethods, proxyMethods } from './wrapMethods.js';
import type { MethodTable } from './wrapMethods.js';

/** What every instrumented model client takes: where to record, the provider name, proxy or patch. */
export interface LlmClientOptions extends LlmInstrumentOptions {
  provider?: string;
  patch?: boolean;
}

/**
 * Records one client method call on its open llm step: `params` is the
 * request body (it names a model), `send` calls the client's own method with
 * `body` (default: the caller's) and the caller's other arguments. Returns
 * what the caller gets back.
 */
export type LlmMethodRecorder = (call: LlmCall, params: unknown, send: (body?: unknown) => unknown) => unknown;

/**
 * Wraps the client's methods at the given dotted paths so that every call
 * whose body names a model is an llm step (`chat {model}`, provider
 * `options.provider ?? defaultProvider`); a call with no model passes
 * through unrecorded. Returns a proxy over the client, or the client itself
 * patched when `options.patch` is true.
 */
export function instrumentLlmClient<C extends object>(
  client: C,
  defaultProvider: string,
  methods: Readonly<Record<string, LlmMethodRecorder>>,
  options: LlmClientOptions,
): C {
  const table: MethodTable = Object.fromEntries(
    Object.entries(methods).map(([path, record]) => [
      path,
      (original: (...args: unknown[]) => unknown) =>
        (body: unknown, ...rest: unknown[]) => {
          // not a request body we can read (null, a string…): the client answers it, with its own error
          const model = typeof body === 'object' && body !== null ? (body as { model?: unknown }).model : undefined;
          if (typeof model !== 'string') return original(body, ...rest);
          const spec = { provider: options.provider ?? defaultProvider, model, operation: 'chat' };
          return LlmCall.open(options.telltale ?? defaultTelltale, spec, options, (call) =>
            record(call, body, (sent = body) => original(sent, ...rest)),
          );
        },
    ]),
  );
  if (options.patch === true) {
    patchMethods(client, table);
    return client;
  }
  return proxyMethods(client, table);
}

/**
 * Hands the caller the client's promise untouched, and records how it
 * settles: `onResult` with the result, or the call failed with the error.
 */
export function recordSettled<T>(
  pending: PromiseLike<T>,
  call: LlmCall,
  onResult: (result: T) => void,
): PromiseLike<T> {
  pending.then(onResult, (err: unknown) => call.fail(err));
  return pending;
}
