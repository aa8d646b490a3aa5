import { SpanStatusCode, context, trace } from '@opentelemetry/api';
import type { Attributes, Context, Span, SpanStatus, Tracer } from '@opentelemetry/api';
import { OtelAttr, RunOutcome, TelltaleAttr } from '@telltale/semconv';
import { ensureContextManager } from './ensureContextManager.js';
import { errorMessageOf, errorTypeOf } from './errorType.js';
import { reportFault } from './reportFault.js';
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
  /** This call's own object: the run id is stamped into it in place. */
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

const OK: SpanStatus = Object.freeze({ code: SpanStatusCode.OK });
/** A step body: `fn(recorder)`, or `fn(args, recorder)` for a tool. */
type Body<R> = (...params: never[]) => R;
/** `runInSpan` was given no tool args: the body is called as `fn(recorder)`. */
const NO_ARGS = Symbol('no args');

/**
 * Runs `fn` inside a new span: starts it under the active context, runs `fn`
 * with the span (and the run id) active, ends it OK, or ERROR when `fn`
 * throws — rethrowing the very same error. Every OTel call is guarded, so a
 * telemetry fault never changes what `fn` does or returns.
 *
 * This is the SDK's hot path (once per step): no closures, one context
 * switch, and a body that returns a plain value ends its span at once
 * instead of a microtask later.
 */
export async function runInSpan<T>(
  env: SpanEnv,
  spec: SpanSpec,
  fn: (recorder: StepRecorder) => T | PromiseLike<T>,
): Promise<T>;
export async function runInSpan<A, T>(
  env: SpanEnv,
  spec: SpanSpec,
  fn: (args: A, recorder: StepRecorder) => T | PromiseLike<T>,
  args: A,
): Promise<T>;
export async function runInSpan<T>(
  env: SpanEnv,
  spec: SpanSpec,
  fn: Body<T | PromiseLike<T>>,
  args: unknown = NO_ARGS,
): Promise<T> {
  const { clock } = env;
  let span: Span | undefined;
  let ctx: Context | undefined;
  let runId = spec.newRunId;
  ensureContextManager();
  const parent = context.active();
  // a guarded run's steps are checked before they start; the stopped step is recorded as failed, not run
  const runGuard = runId === undefined ? getRunGuard(parent) : undefined;
  const stop = runGuard?.check(spec.name, spec.attributes);
  try {
    runId ??= getRunId(parent);
    span = startSpan(env.getTracer(), spec, parent, runId, clock?.());
    ctx = contextOf(span, spec, parent, clock);
  } catch (err) {
    reportFault('span.start', err);
  }
  if (stop !== undefined) {
    if (span !== undefined) endGuarded(span, stop, spec, clock);
    throw stop;
  }
  const inputRedactions = Number(spec.attributes[TelltaleAttr.contentRedactions] ?? 0);
  const recorder = new StepRecorder(span, runId, spec.attempt, runGuard, spec.content, inputRedactions);
  let result: T;
  try {
    const returned = callInContext(ctx, fn, recorder, args);
    result = isThenable(returned) ? await returned : returned;
  } catch (err) {
    if (span !== undefined) endGuarded(span, err, spec, clock);
    throw err;
  }
  if (spec.content?.autoOutput === true && spec.content.settings.mode !== 'none') recorder.recordOutput(result);
  if (span !== undefined) {
    try {
      endOk(span, recorder, spec, clock);
    } catch (err) {
      reportFault('span.end', err);
    }
  }
  return result;
}

function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return (
    value !== null &&
    (typeof value === 'object' || typeof value === 'function') &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

function startSpan(
  tracer: Tracer,
  spec: SpanSpec,
  parent: Context,
  runId: string | undefined,
  startTime: number | undefined,
): Span {
  // each call's spec owns its attributes object: stamp the run id in place (no copy)
  const attributes: Attributes = spec.attributes;
  if (runId !== undefined) attributes[TelltaleAttr.runId] = runId;
  return tracer.startSpan(spec.name, startTime === undefined ? { attributes } : { attributes, startTime }, parent);
}

function contextOf(span: Span, spec: SpanSpec, parent: Context, clock: (() => number) | undefined): Context {
  const ctx = trace.setSpan(parent, span);
  if (spec.newRunId === undefined) return ctx;
  // the run id travels in W3C baggage too, so instrumented calls carry it to other services
  const runCtx = withRunIdBaggage(withRunId(ctx, spec.newRunId), spec.newRunId);
  if (spec.guard === undefined) return runCtx;
  return withRunGuard(runCtx, new RunGuardState(spec.guard, span, spec.newRunId, clock ?? Date.now));
}

/** Calls the body, marking the recorder once it is entered (so a failing context switch is told apart). */
function enter<R>(fn: Body<R>, recorder: StepRecorder, args: unknown): R {
  recorder.entered = true;
  const call = fn as (...params: unknown[]) => R;
  return args === NO_ARGS ? call(recorder) : call(args, recorder);
}

/** Runs `fn` with `ctx` active; if entering the context itself fails, runs `fn` anyway. */
function callInContext<R>(ctx: Context | undefined, fn: Body<R>, recorder: StepRecorder, args: unknown): R {
  if (ctx === undefined) return enter(fn, recorder, args);
  try {
    return context.with(ctx, enter<R>, undefined, fn, recorder, args);
  } catch (err) {
    if (recorder.entered) throw err;
    reportFault('context', err);
    return enter(fn, recorder, args);
  }
}

function endGuarded(span: Span, err: unknown, spec: SpanSpec, clock: (() => number) | undefined): void {
  try {
    endWithError(span, err, spec, clock?.());
  } catch (fault) {
    reportFault('span.end', fault);
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

function endOk(span: Span, recorder: StepRecorder, spec: SpanSpec, clock: (() => number) | undefined): void {
  const endTime = clock?.();
  try {
    if (recorder.declaredOutcome === RunOutcome.failure) return;
    if (spec.newRunId !== undefined) span.setAttribute(TelltaleAttr.runOutcome, RunOutcome.success);
    span.setStatus(OK);
  } finally {
    span.end(endTime);
  }
}
