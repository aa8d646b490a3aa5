import { context, INVALID_SPAN_CONTEXT, trace } from '@opentelemetry/api';
import type {
  Attributes,
  AttributeValue,
  Context,
  Exception,
  Link,
  Span,
  SpanContext,
  SpanOptions,
  SpanStatus,
  TimeInput,
  Tracer,
} from '@opentelemetry/api';
import { isContentAttribute, TelltaleAttr, VercelAiAttr } from '@telltale/semconv';
import { captureValue, resolveContent, type ContentOptions, type ContentSettings } from '../internal/contentCapture.js';
import { reportFault } from '../internal/reportFault.js';
import { stableHash } from '../stableHash.js';

/**
 * The AI SDK's attributes that hold what a call was given or answered,
 * besides those the collector reads as content (`isContentAttribute`):
 * reasoning text, tool definitions, embedded values and reranked documents.
 */
const MORE_CONTENT: ReadonlySet<string> = new Set([
  'ai.response.reasoning',
  'ai.prompt.tools',
  'ai.value',
  'ai.values',
  'ai.embedding',
  'ai.embeddings',
  'ai.documents',
]);

const isContent = (key: string): boolean => isContentAttribute(key) || MORE_CONTENT.has(key);

/**
 * A tracer for the AI SDK's spans that applies the SDK's content capture
 * to them, as the step wrappers do to their own: under `none` no content
 * attribute is kept; under `metadata` each keeps its shape (strings become
 * their length); under `full` each string goes through the redactors. It
 * runs as the attributes are set, so nothing else leaves the process. A
 * tool call's arguments are hashed into `telltale.tool.args_hash` before
 * that, whatever the mode, so repeated calls are detected as loops.
 */
export class CapturingTracer implements Tracer {
  constructor(
    private readonly inner: Tracer,
    private readonly content: ContentOptions,
  ) {}

  startSpan(name: string, options?: SpanOptions, ctx?: Context): Span {
    // resolved per span: `init` may set the process's defaults after the setting was made
    const span = new CapturingSpan(resolveContent(undefined, this.content));
    const given = options?.attributes;
    const kept = given === undefined ? given : span.capture(given);
    const own = kept === given ? options : { ...options, attributes: { ...kept, ...span.added } };
    span.inner = this.inner.startSpan(name, own, ctx);
    return span;
  }

  startActiveSpan<F extends (span: Span) => unknown>(name: string, fn: F): ReturnType<F>;
  startActiveSpan<F extends (span: Span) => unknown>(name: string, options: SpanOptions, fn: F): ReturnType<F>;
  startActiveSpan<F extends (span: Span) => unknown>(
    name: string,
    options: SpanOptions,
    ctx: Context,
    fn: F,
  ): ReturnType<F>;
  startActiveSpan<F extends (span: Span) => unknown>(name: string, ...rest: unknown[]): ReturnType<F> {
    const fn = rest.at(-1) as (span: Span) => ReturnType<F>;
    const options = rest.length >= 2 ? (rest[0] as SpanOptions | undefined) : undefined;
    const parent = rest.length >= 3 ? (rest[1] as Context) : context.active();
    const span = this.startSpan(name, options, parent);
    return context.with(trace.setSpan(parent, span), fn, undefined, span);
  }
}

/** A span whose attributes pass through content capture on their way to the real one. */
class CapturingSpan implements Span {
  inner: Span = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);
  /** Attributes capture adds (mode, redactions, args hash), set on the span once it exists. */
  added: Attributes = {};
  /** Strings the redactors changed, per content attribute (one set again replaces its count). */
  private readonly redactions = new Map<string, number>();

  constructor(private readonly settings: ContentSettings) {}

  /** `attributes` with capture applied; what it adds goes to `added`. */
  capture(attributes: Attributes): Attributes {
    let out: Attributes | undefined;
    for (const [key, value] of Object.entries(attributes)) {
      if (!isContent(key)) continue;
      out ??= { ...attributes };
      delete out[key];
      try {
        const kept = this.captureOne(key, value);
        if (kept !== undefined) out[key] = kept;
      } catch (err) {
        reportFault('span.attribute', err);
      }
    }
    return out ?? attributes;
  }

  private captureOne(key: string, value: AttributeValue | undefined): AttributeValue | undefined {
    if (value === undefined) return undefined;
    if (key === VercelAiAttr.toolCallArgs) this.added[TelltaleAttr.toolArgsHash] = stableHash(value);
    if (this.settings.mode === 'none') return undefined;
    let redacted = 0;
    const one = (v: unknown): string | undefined => {
      const captured = captureValue(typeof v === 'string' ? parsedOrText(v) : v, this.settings, true);
      redacted += captured?.redactions ?? 0;
      return captured?.json;
    };
    const kept = Array.isArray(value) ? value.map((v) => one(v) ?? '') : one(value);
    this.redactions.set(key, redacted);
    let total = 0;
    for (const n of this.redactions.values()) total += n;
    this.added[TelltaleAttr.contentCapture] = this.settings.mode;
    if (total > 0 || this.added[TelltaleAttr.contentRedactions] !== undefined)
      this.added[TelltaleAttr.contentRedactions] = total;
    return kept;
  }

  spanContext(): SpanContext {
    return this.inner.spanContext();
  }

  setAttribute(key: string, value: AttributeValue): this {
    return this.setAttributes({ [key]: value });
  }

  setAttributes(attributes: Attributes): this {
    const kept = this.capture(attributes);
    this.inner.setAttributes(kept === attributes ? attributes : { ...kept, ...this.added });
    return this;
  }

  addEvent(name: string, attributesOrTime?: Attributes | TimeInput, time?: TimeInput): this {
    this.inner.addEvent(name, attributesOrTime, time);
    return this;
  }

  addLink(link: Link): this {
    this.inner.addLink(link);
    return this;
  }

  addLinks(links: Link[]): this {
    this.inner.addLinks(links);
    return this;
  }

  setStatus(status: SpanStatus): this {
    this.inner.setStatus(status);
    return this;
  }

  updateName(name: string): this {
    this.inner.updateName(name);
    return this;
  }

  end(endTime?: TimeInput): void {
    this.inner.end(endTime);
  }

  isRecording(): boolean {
    return this.inner.isRecording();
  }

  recordException(exception: Exception, time?: TimeInput): void {
    this.inner.recordException(exception, time);
  }
}

/** JSON (an object or a list, as the AI SDK writes messages and arguments) parsed; any other text as it is. */
function parsedOrText(text: string): unknown {
  const first = text.trimStart()[0];
  if (first !== '{' && first !== '[') return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
