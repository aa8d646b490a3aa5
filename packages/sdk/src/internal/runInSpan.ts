import { SpanStatusCode, context, trace } from '@opentelemetry/api';
import type { Attributes, Context, Span, Tracer } from '@opentelemetry/api';
import { OtelAttr, RunOutcome, TelltaleAttr } from '@telltale/semconv';
import { ensureContextManager } from './ensureContextManager.js';
import { errorMessageOf, errorTypeOf } from './errorType.js';
import { guard, reportFault } from './reportFault.js';
import type { RunGuard } from '../types.js';
import { withRunIdBaggage } from './runBaggage.js';
import { getRunId, withRunId } from './runContext.js';
import { getRunGuard, RunGuardState, withRunGuard } from './RunGuardState.js';
import { StepRecorder } from './StepRecorder.js';
import type { ContentSettings } from './contentCapture.js';

export interface SpanEnv {
  getTracer: () => Tracer;
  /** Epoch milliseconds for span start/end; default: the tracer's own clock. */
  clock?: (() => number) | undefined;
}

export interface SpanSpec {
  name: string;
  attributes: Attributes;
  /** 1-based attempt number, handed to the step handle. */
  attempt: number;
  /** Set for run roots: the new run id, put in context for every span inside. */
  newRunId?: string;
  /** Run roots: the guard limits of the run. */
  guard?: RunGuard | undefined;
  /** The step kind and content capture settings; `autoOutput` records `fn`'s result as the output. */
  content?: { kind: string; settings: ContentSettings; autoOutput: boolean } | undefined;
}

/**
 * Runs `fn` inside a new span: starts it under the active context, runs `fn`
 * with the span (and the run id) active, ends it OK, or ERROR when `fn`
 * throws — rethrowing the very same error. Every OTel call is guarded, so a
 * telemetry fault never changes what `fn` does or returns.
 */
export async function runInSpan<T>(
  env: SpanEnv,
  spec: SpanSpec,
  fn: (recorder: StepRecorder) => T | PromiseLike<T>,
): Promise<T> {
  const { clock } = env;
  // a guarded run's steps are checked before they start; the stopped step is recorded as failed, not run
  const runGuard = spec.newRunId === undefined ? getRunGuard(context.active()) : undefined;
  const stop = runGuard?.check(spec.name, spec.attributes);
  const started = guard('span.start', () => startSpan(env.getTracer(), spec, clock?.(), clock));
  if (stop !== undefined) {
    if (started) guard('span.end', () => endWithError(started.span, stop, spec, clock?.()));
    throw stop;
  }
  const recorder = new StepRecorder(
    started?.span,
    started?.runId ?? spec.newRunId,
    spec.attempt,
    runGuard,
    spec.content,
  );
  let result: T;
  try {
    result = await callInContext(started?.ctx, () => fn(recorder));
  } catch (err) {
    if (started) guard('span.end', () => endWithError(started.span, err, spec, clock?.()));
    throw err;
  }
  if (spec.content?.autoOutput === true && spec.content.settings.mode !== 'none') recorder.recordOutput(result);
  if (started) guard('span.end', () => endOk(started.span, recorder, spec, clock?.()));
  return result;
}

function startSpan(
  tracer: Tracer,
  spec: SpanSpec,
  startTime: number | undefined,
  clock?: () => number,
): { span: Span; ctx: Context; runId: string | undefined } {
  ensureContextManager();
  const parent = context.active();
  const runId = spec.newRunId ?? getRunId(parent);
  const attributes: Attributes = { ...spec.attributes };
  if (runId !== undefined) attributes[TelltaleAttr.runId] = runId;
  const span = tracer.startSpan(
    spec.name,
    startTime === undefined ? { attributes } : { attributes, startTime },
    parent,
  );
  let ctx = trace.setSpan(parent, span);
  // the run id travels in W3C baggage too, so instrumented calls carry it to other services
  if (spec.newRunId !== undefined) ctx = withRunIdBaggage(withRunId(ctx, spec.newRunId), spec.newRunId);
  if (spec.newRunId !== undefined && spec.guard !== undefined)
    ctx = withRunGuard(ctx, new RunGuardState(spec.guard, span, spec.newRunId, clock ?? Date.now));
  return { span, ctx, runId };
}

/** Runs `fn` with `ctx` active; if entering the context itself fails, runs `fn` anyway. */
function callInContext<R>(ctx: Context | undefined, fn: () => R): R {
  if (ctx === undefined) return fn();
  let entered = false;
  try {
    return context.with(ctx, () => {
      entered = true;
      return fn();
    });
  } catch (err) {
    if (entered) throw err;
    reportFault('context', err);
    return fn();
  }
}

function endWithError(span: Span, err: unknown, spec: SpanSpec, endTime: number | undefined): void {
  try {
    const message = errorMessageOf(err);
    span.setStatus({ code: SpanStatusCode.ERROR, message });
    span.setAttribute(OtelAttr.errorType, errorTypeOf(err));
    if (spec.newRunId !== undefined) span.setAttribute(TelltaleAttr.runOutcome, RunOutcome.failure);
    span.recordException(err instanceof Error ? err : message, endTime);
  } finally {
    span.end(endTime);
  }
}

function endOk(span: Span, recorder: StepRecorder, spec: SpanSpec, endTime: number | undefined): void {
  try {
    if (recorder.declaredOutcome === RunOutcome.failure) return;
    if (spec.newRunId !== undefined) span.setAttribute(TelltaleAttr.runOutcome, RunOutcome.success);
    span.setStatus({ code: SpanStatusCode.OK });
  } finally {
    span.end(endTime);
  }
}
