import { INVALID_SPAN_CONTEXT, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Attributes, Span } from '@opentelemetry/api';
import { OtelAttr, RunOutcome, TelltaleAttr } from '@telltale/semconv';
import { stableHash } from '../stableHash.js';
import type { DeclaredRunOutcome, LlmUsage, RunHandle, StepHandle } from '../types.js';
import { reportFault } from './reportFault.js';
import type { RunGuardState } from './RunGuardState.js';
import type { ContentSettings } from './contentCapture.js';
import { contentAttributes, type ContentDirection } from './stepContent.js';

const NO_CONTENT: ContentSettings = { mode: 'none', redactors: [] };

type Methods = Omit<RunHandle, 'span' | 'runId' | 'attempt'>;

interface Usage {
  input: number;
  output: number;
  cached: number;
  cost: number;
  hasCached: boolean;
  hasCost: boolean;
}

/**
 * The handle a step function receives (the run handle too: `setOutcome` is
 * only exposed through the `RunHandle` type). Every method is guarded, and
 * bound to its handle so destructuring is safe: the methods are made at the
 * first read (most steps never use their handle, and one is made per step).
 */
export class StepRecorder implements StepHandle {
  readonly span: Span;
  /** The outcome the agent declared with `setOutcome`, if any. */
  declaredOutcome: DeclaredRunOutcome | undefined;
  /** Set when the step body was called (tells a failing context switch from a failing body). */
  entered = false;
  private usage: Usage | undefined;
  private methods: Methods | undefined;
  /** Strings the redactors changed in the recorded input and output: the span's count is their sum. */
  private readonly redactions: Record<ContentDirection, number>;

  constructor(
    span: Span | undefined,
    readonly runId: string | undefined,
    readonly attempt: number,
    private readonly runGuard?: RunGuardState,
    /** The step kind (how content is named) and what of it to capture. */
    private readonly content: { kind: string; settings: ContentSettings } = { kind: '', settings: NO_CONTENT },
    /** Strings redacted in the input the step started with (its span's attributes hold it). */
    inputRedactions = 0,
  ) {
    this.span = span ?? trace.wrapSpanContext(INVALID_SPAN_CONTEXT);
    this.redactions = { input: inputRedactions, output: 0 };
  }

  get setAttribute(): Methods['setAttribute'] {
    return this.bound().setAttribute;
  }

  get setAttributes(): Methods['setAttributes'] {
    return this.bound().setAttributes;
  }

  get setOutputHash(): Methods['setOutputHash'] {
    return this.bound().setOutputHash;
  }

  get setStateHash(): Methods['setStateHash'] {
    return this.bound().setStateHash;
  }

  get recordUsage(): Methods['recordUsage'] {
    return this.bound().recordUsage;
  }

  get recordInput(): Methods['recordInput'] {
    return this.bound().recordInput;
  }

  get recordOutput(): Methods['recordOutput'] {
    return this.bound().recordOutput;
  }

  get setResponseModel(): Methods['setResponseModel'] {
    return this.bound().setResponseModel;
  }

  get setOutcome(): Methods['setOutcome'] {
    return this.bound().setOutcome;
  }

  private bound(): Methods {
    return (this.methods ??= {
      setAttribute: (key, value) => this.guarded(() => this.span.setAttribute(key, value)),
      setAttributes: (attributes) => this.guarded(() => this.span.setAttributes(attributes)),
      setOutputHash: (value) =>
        this.guarded(() => this.span.setAttribute(TelltaleAttr.outputHash, stableHash(value)), 'hash'),
      setStateHash: (value) =>
        this.guarded(() => this.span.setAttribute(TelltaleAttr.stateHash, stableHash(value)), 'hash'),
      recordUsage: (usage) => this.guarded(() => this.addUsage(usage)),
      recordInput: (value) => this.guarded(() => this.recordContent('input', value)),
      recordOutput: (value) => this.guarded(() => this.recordContent('output', value)),
      setResponseModel: (model) => this.guarded(() => this.span.setAttribute(OtelAttr.genAiResponseModel, model)),
      setOutcome: (outcome, message) => this.guarded(() => this.declare(outcome, message)),
    });
  }

  private guarded(fn: () => unknown, kind: 'span.attribute' | 'hash' = 'span.attribute'): void {
    try {
      fn();
    } catch (err) {
      reportFault(kind, err);
    }
  }

  private recordContent(direction: ContentDirection, value: unknown): void {
    const { kind, settings } = this.content;
    if (settings.mode === 'none') return;
    const attributes = contentAttributes(kind, direction, value, settings);
    if (Object.keys(attributes).length === 0) return;
    // a side recorded again replaces its count; the other side's stays in the sum
    const before = this.redactions.input + this.redactions.output;
    this.redactions[direction] = Number(attributes[TelltaleAttr.contentRedactions] ?? 0);
    const total = this.redactions.input + this.redactions.output;
    if (total > 0 || before > 0) attributes[TelltaleAttr.contentRedactions] = total;
    this.span.setAttributes(attributes);
  }

  private addUsage(usage: LlmUsage): void {
    const u = (this.usage ??= { input: 0, output: 0, cached: 0, cost: 0, hasCached: false, hasCost: false });
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
  }

  private declare(outcome: DeclaredRunOutcome, message: string | undefined): void {
    this.declaredOutcome = outcome;
    this.span.setAttribute(TelltaleAttr.runOutcome, outcome);
    if (outcome === RunOutcome.failure) {
      this.span.setStatus({ code: SpanStatusCode.ERROR, message: message ?? 'run declared failure' });
    }
  }
}

function finite(n: number): number {
  return Number.isFinite(n) ? n : 0;
}
