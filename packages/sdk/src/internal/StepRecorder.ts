import { INVALID_SPAN_CONTEXT, SpanStatusCode, trace } from '@opentelemetry/api';
import type { AttributeValue, Attributes, Span } from '@opentelemetry/api';
import { OtelAttr, RunOutcome, TelltaleAttr } from '@telltale/semconv';
import { stableHash } from '../stableHash.js';
import type { DeclaredRunOutcome, LlmUsage, StepHandle } from '../types.js';
import { guard } from './reportFault.js';
import type { RunGuardState } from './RunGuardState.js';
import type { ContentSettings } from './contentCapture.js';
import { contentAttributes, type ContentDirection } from './stepContent.js';

const NO_CONTENT: ContentSettings = { mode: 'none', redactors: [] };

/**
 * The handle a step function receives (the run handle too: `setOutcome` is
 * only exposed through the `RunHandle` type). Every method is an arrow
 * property so destructuring is safe, and every method is guarded.
 */
export class StepRecorder implements StepHandle {
  readonly span: Span;
  /** The outcome the agent declared with `setOutcome`, if any. */
  declaredOutcome: DeclaredRunOutcome | undefined;
  private usage = { input: 0, output: 0, cached: 0, cost: 0, hasCached: false, hasCost: false };

  constructor(
    span: Span | undefined,
    readonly runId: string | undefined,
    readonly attempt: number,
    private readonly runGuard?: RunGuardState,
    /** The step kind (how content is named) and what of it to capture. */
    private readonly content: { kind: string; settings: ContentSettings } = { kind: '', settings: NO_CONTENT },
  ) {
    this.span = span ?? trace.wrapSpanContext(INVALID_SPAN_CONTEXT);
  }

  setAttribute = (key: string, value: AttributeValue): void => {
    guard('span.attribute', () => this.span.setAttribute(key, value));
  };

  setAttributes = (attributes: Attributes): void => {
    guard('span.attribute', () => this.span.setAttributes(attributes));
  };

  setOutputHash = (value: unknown): void => {
    guard('hash', () => this.span.setAttribute(TelltaleAttr.outputHash, stableHash(value)));
  };

  setStateHash = (value: unknown): void => {
    guard('hash', () => this.span.setAttribute(TelltaleAttr.stateHash, stableHash(value)));
  };

  recordUsage = (usage: LlmUsage): void => {
    guard('span.attribute', () => {
      const u = this.usage;
      u.input += finite(usage.inputTokens);
      u.output += finite(usage.outputTokens);
      const attributes: Attributes = {
        [OtelAttr.genAiInputTokens]: u.input,
        [OtelAttr.genAiOutputTokens]: u.output,
      };
      if (usage.cachedInputTokens !== undefined) {
        u.cached += finite(usage.cachedInputTokens);
        u.hasCached = true;
      }
      if (u.hasCached) attributes[OtelAttr.genAiCacheReadInputTokens] = u.cached;
      if (usage.costUsd !== undefined) {
        u.cost += finite(usage.costUsd);
        u.hasCost = true;
        this.runGuard?.addCost(finite(usage.costUsd));
      }
      if (u.hasCost) attributes[TelltaleAttr.costUsd] = u.cost;
      this.span.setAttributes(attributes);
    });
  };

  recordInput = (value: unknown): void => {
    this.recordContent('input', value);
  };

  recordOutput = (value: unknown): void => {
    this.recordContent('output', value);
  };

  private recordContent(direction: ContentDirection, value: unknown): void {
    guard('span.attribute', () => {
      const { kind, settings } = this.content;
      this.span.setAttributes(contentAttributes(kind, direction, value, settings));
    });
  }

  setResponseModel = (model: string): void => {
    guard('span.attribute', () => this.span.setAttribute(OtelAttr.genAiResponseModel, model));
  };

  setOutcome = (outcome: DeclaredRunOutcome, message?: string): void => {
    guard('span.attribute', () => {
      this.declaredOutcome = outcome;
      this.span.setAttribute(TelltaleAttr.runOutcome, outcome);
      if (outcome === RunOutcome.failure) {
        this.span.setStatus({ code: SpanStatusCode.ERROR, message: message ?? 'run declared failure' });
      }
    });
  };
}

function finite(n: number): number {
  return Number.isFinite(n) ? n : 0;
}
