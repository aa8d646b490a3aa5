import { OtelAttr, TelltaleAttr } from '@telltale/semconv';
import { context } from '@opentelemetry/api';
import type { Attributes } from '@opentelemetry/api';
import { suppressTracing } from '@opentelemetry/core';
import type { Telltale } from '../createTelltale.js';
import type { StepHandle, StepOptions } from '../types.js';
import type { LlmCallUsage } from './LlmCallUsage.js';
import { recordableError } from './providerErrorType.js';

/** Where an instrumented client records, and how its steps are named. */
export interface LlmInstrumentOptions {
  /** The wrappers to record with (default: the global ones, set up by `init`). */
  telltale?: Telltale;
  /** Step name of every call (default: `{operation} {model}`, e.g. `chat gpt-4o-mini`). */
  stepName?: string;
  /** Extra options of every step (attributes, side effect…). */
  stepOptions?: Omit<StepOptions, 'retry' | 'attempt'>;
}

export interface LlmCallSpec {
  provider: string;
  model: string;
  operation: string;
}

/**
 * One model call as an llm step whose end is decided by the caller: `start`
 * opens the step (through the SDK's own `llm()` wrapper, so run id, guards,
 * attempts and error types work as for any step), then exactly one of
 * `finish`, `fail` or `abandon` ends it. Later calls are ignored, and no
 * method throws.
 */
export class LlmCall {
  private step: StepHandle | undefined;
  private end: { ok: () => void; fail: (err: unknown) => void } | undefined;
  private readonly startedAt = performance.now();
  private firstChunkSeen = false;
  private ended = false;

  private constructor() {}

  /**
   * Opens the step and runs `invoke` inside it (synchronously, in the step's
   * context, with tracing suppressed: the client's own spans, if it makes
   * any, are not recorded), returning what `invoke` returns. When a run guard stops the
   * call, `invoke` is not run and the guard's rejected promise is returned.
   */
  static open<R>(
    telltale: Telltale,
    spec: LlmCallSpec,
    options: LlmInstrumentOptions | undefined,
    invoke: (call: LlmCall) => R,
  ): R | Promise<never> {
    const call = new LlmCall();
    const name = options?.stepName ?? `${spec.operation} ${spec.model}`;
    let outcome: { value: R } | { error: unknown } | undefined;
    const done = telltale.llm(
      name,
      { model: spec.model, provider: spec.provider, operation: spec.operation },
      (step) =>
        new Promise<void>((ok, fail) => {
          call.step = step;
          call.end = { ok, fail };
          try {
            // the step is the call's span: a client that traces its own calls (the Anthropic SDK
            // does) would record each call a second time, as a model-call span under the step
            outcome = { value: context.with(suppressTracing(context.active()), () => invoke(call)) };
          } catch (error) {
            outcome = { error };
            call.fail(error);
          }
        }),
      options?.stepOptions,
    );
    if (outcome === undefined) return done as Promise<never>;
    // the step's own failure is recorded on its span; the caller sees the client's error
    done.catch(() => undefined);
    if ('error' in outcome) throw outcome.error;
    return outcome.value;
  }

  /** Records the messages sent (content capture; a no-op under `capture: 'none'`). */
  input(messages: unknown): void {
    if (!this.ended) this.step?.recordInput(messages);
  }

  /** Records the model's answer messages (content capture; a no-op under `capture: 'none'`). */
  output(messages: unknown): void {
    if (!this.ended) this.step?.recordOutput(messages);
  }

  /** Marks the first output chunk of a stream (records the time to first token once). */
  firstChunk(): void {
    if (this.firstChunkSeen || this.ended) return;
    this.firstChunkSeen = true;
    this.step?.setAttribute(TelltaleAttr.llmTimeToFirstTokenMs, round(performance.now() - this.startedAt));
  }

  /** Records the response: model, id, finish reasons and usage (any may be missing). */
  response(r: {
    model?: string | null | undefined;
    id?: string | null | undefined;
    finishReasons?: ReadonlyArray<string | null | undefined>;
    usage?: LlmCallUsage | undefined;
  }): void {
    const step = this.step;
    if (step === undefined || this.ended) return;
    if (typeof r.model === 'string' && r.model !== '') step.setResponseModel(r.model);
    if (typeof r.id === 'string' && r.id !== '') step.setAttribute(OtelAttr.genAiResponseId, r.id);
    const reasons = (r.finishReasons ?? []).filter((x): x is string => typeof x === 'string' && x !== '');
    if (reasons.length > 0) step.setAttribute(OtelAttr.genAiResponseFinishReasons, reasons);
    const u = r.usage;
    if (u !== undefined) {
      step.recordUsage({
        inputTokens: u.inputTokens,
        outputTokens: u.outputTokens,
        ...(u.cacheReadTokens !== undefined ? { cachedInputTokens: u.cacheReadTokens } : {}),
      });
      const extra: Attributes = {};
      if (u.cacheCreationTokens !== undefined) extra[OtelAttr.genAiCacheCreationInputTokens] = u.cacheCreationTokens;
      if (u.reasoningTokens !== undefined) extra[OtelAttr.genAiReasoningOutputTokens] = u.reasoningTokens;
      step.setAttributes(extra);
    }
  }

  /** Ends the step OK. */
  finish(): void {
    if (this.ended) return;
    this.ended = true;
    this.end?.ok();
  }

  /** Ends the step failed with `err` (its `error.type` normalized: 429 → `rate_limit`). */
  fail(err: unknown): void {
    if (this.ended) return;
    this.ended = true;
    this.end?.fail(recordableError(err));
  }

  /** Ends a stream the caller stopped reading (break, abort): OK, marked abandoned. */
  abandon(): void {
    if (this.ended) return;
    this.step?.setAttribute(TelltaleAttr.llmStreamAbandoned, true);
    this.finish();
  }
}

function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}
