import { randomUUID } from 'node:crypto';
import { trace } from '@opentelemetry/api';
import type { Attributes, Tracer, TracerProvider } from '@opentelemetry/api';
import { GenAiOperation, OtelAttr, StepKind, TelltaleAttr, TelltaleError, TelltaleErrorCode } from '@telltale/semconv';
import {
  argumentError,
  captureProblem,
  llmProblem,
  retryProblem,
  runProblem,
  stepKindProblem,
  stepProblem,
} from './internal/arguments.js';
import { noteGlobalSpan } from './internal/globalProvider.js';
import { reportFault } from './internal/reportFault.js';
import { runAttempts } from './internal/runAttempts.js';
import { runInSpan } from './internal/runInSpan.js';
import type { SpanEnv } from './internal/runInSpan.js';
import { stepAttributes } from './internal/stepAttributes.js';
import { resolveContent, type ContentOptions } from './internal/contentCapture.js';
import { contentAttributes } from './internal/stepContent.js';
import { SDK_NAME, SDK_VERSION } from './internal/version.js';
import { stableHash } from './stableHash.js';
import type {
  LlmModel,
  RetryOptions,
  RunHandle,
  RunOptions,
  StepFn,
  StepHandle,
  StepKindName,
  StepOptions,
} from './types.js';

/**
 * The step wrappers, bound to one tracer provider. Each returns a promise: a
 * call with an invalid argument rejects with a `TelltaleError` (code
 * BAD_REQUEST) naming the argument, without running `fn`.
 */
export interface Telltale {
  /** The run root: a span of step kind `run` whose run id is stamped on every span inside. */
  run: <T>(name: string, fn: (run: RunHandle) => T | PromiseLike<T>, opts?: RunOptions) => Promise<T>;
  plan: <T>(name: string, fn: StepFn<T>, opts?: StepOptions) => Promise<T>;
  act: <T>(name: string, fn: StepFn<T>, opts?: StepOptions) => Promise<T>;
  validate: <T>(name: string, fn: StepFn<T>, opts?: StepOptions) => Promise<T>;
  /** A tool call; `args` are hashed into `telltale.tool.args_hash` and passed to `fn`. */
  tool: <A, T>(
    name: string,
    args: A,
    fn: (args: A, step: StepHandle) => T | PromiseLike<T>,
    opts?: StepOptions,
  ) => Promise<T>;
  /** A model call to `model` (a model name, or the model with its provider); record its usage with `step.recordUsage`. */
  llm: <T>(name: string, model: string | LlmModel, fn: StepFn<T>, opts?: StepOptions) => Promise<T>;
  /** A step of any kind (`retrieval`, `handoff`, `guardrail`, `custom`…). */
  step: <T>(kind: StepKindName, name: string, fn: StepFn<T>, opts?: StepOptions) => Promise<T>;
  /** Attempts `fn` up to `opts.attempts` times, one span per attempt. */
  retry: <T>(name: string, fn: StepFn<T>, opts: RetryOptions) => Promise<T>;
}

export interface CreateTelltaleOptions extends ContentOptions {
  /**
   * Where spans go. Default: the global tracer provider, looked up at each
   * span (so `init()` or the user's own OTel setup may come later).
   */
  tracerProvider?: TracerProvider;
  /**
   * Epoch milliseconds used for span start and end times, for simulations
   * and replays (e.g. a virtual clock). Default: the tracer's own clock.
   */
  clock?: () => number;
}

/**
 * Creates the step wrappers over a tracer provider. `init()` + the
 * module-level `run`, `tool`… use the global provider; tests and embedders
 * (e.g. a demo inside a server) pass their own provider and touch no globals
 * except the context manager (installed once if none propagates context).
 */
export function createTelltale(options: CreateTelltaleOptions = {}): Telltale {
  const { tracerProvider, clock } = options;
  const badCapture = captureProblem(options.capture);
  if (badCapture !== undefined) {
    const message = `createTelltale: ${badCapture}: ignored`;
    reportFault('config', new TelltaleError({ code: TelltaleErrorCode.INVALID_CONFIG, message }));
  }
  const contentOptions: ContentOptions = {
    ...(options.capture === undefined || badCapture !== undefined ? {} : { capture: options.capture }),
    ...(options.redact === undefined ? {} : { redact: options.redact }),
  };
  let ownTracer: Tracer | undefined;
  const getTracer = (): Tracer => {
    if (tracerProvider !== undefined) return (ownTracer ??= tracerProvider.getTracer(SDK_NAME, SDK_VERSION));
    noteGlobalSpan();
    return trace.getTracer(SDK_NAME, SDK_VERSION);
  };
  const env: SpanEnv = { getTracer, clock };

  function execute<T>(
    name: string,
    attributes: Attributes,
    opts: StepOptions | undefined,
    fn: StepFn<T>,
    input?: { value: unknown },
  ): Promise<T> {
    const kind = String(attributes[TelltaleAttr.stepKind] ?? '');
    const settings = resolveContent(opts?.capture, contentOptions);
    // model calls record their messages themselves (recordInput / recordOutput); other steps' results are their output
    const content = { kind, settings, autoOutput: kind !== StepKind.llm };
    if (input !== undefined) addInputContent(attributes, kind, input.value, settings);
    const policy = opts?.retry;
    if (policy === undefined) {
      const attempt = opts?.attempt ?? 1;
      // `attributes` is this call's own object (stepAttributes made it): fill it in place
      attributes[TelltaleAttr.stepAttempt] = attempt;
      return runInSpan(env, { name, attempt, attributes, content }, fn);
    }
    return runAttempts(policy, (attempt, max) => {
      const own: Attributes = { ...attributes };
      own[TelltaleAttr.stepAttempt] = attempt;
      own[TelltaleAttr.stepMaxAttempts] = max;
      return runInSpan(env, { name, attempt, attributes: own, content }, fn);
    });
  }

  function kindStep<T>(
    call: string,
    kind: StepKindName,
    name: string,
    fn: StepFn<T>,
    opts: StepOptions | undefined,
  ): Promise<T> {
    const problem = stepProblem(name, fn, opts);
    if (problem !== undefined) return Promise.reject(argumentError(call, name, problem));
    return execute(name, stepAttributes(kind, name, opts), opts, fn, stateInput(opts));
  }

  return {
    run: (name, fn, opts) => {
      const problem = runProblem(name, fn, opts);
      if (problem !== undefined) return Promise.reject(argumentError('run', name, problem));
      const runId = opts?.runId ?? randomUUID();
      const attributes: Attributes = {
        ...opts?.attributes,
        [TelltaleAttr.stepKind]: StepKind.run,
        [TelltaleAttr.stepName]: name,
        [OtelAttr.genAiOperationName]: GenAiOperation.invokeAgent,
        [OtelAttr.genAiAgentName]: name,
      };
      if (opts?.agentId !== undefined) attributes[OtelAttr.genAiAgentId] = opts.agentId;
      if (opts?.sessionId !== undefined) attributes[OtelAttr.genAiConversationId] = opts.sessionId;
      return runInSpan(env, { name, attempt: 1, attributes, newRunId: runId, guard: opts?.guard }, (recorder) =>
        fn(recorder as RunHandle),
      );
    },
    plan: (name, fn, opts) => kindStep('plan', StepKind.plan, name, fn, opts),
    act: (name, fn, opts) => kindStep('act', StepKind.act, name, fn, opts),
    validate: (name, fn, opts) => kindStep('validate', StepKind.validate, name, fn, opts),
    step: (kind, name, fn, opts) => {
      const problem = stepKindProblem(kind);
      if (problem !== undefined) return Promise.reject(argumentError('step', name, problem));
      return kindStep('step', kind, name, fn, opts);
    },
    tool: (name, args, fn, opts) => {
      const problem = stepProblem(name, fn, opts);
      if (problem !== undefined) return Promise.reject(argumentError('tool', name, problem));
      let argsHash: string | undefined;
      try {
        argsHash = stableHash(args);
      } catch (err) {
        reportFault('hash', err);
      }
      const attributes = stepAttributes(StepKind.tool, name, opts);
      attributes[TelltaleAttr.toolName] = name;
      attributes[OtelAttr.genAiToolName] = name;
      attributes[OtelAttr.genAiOperationName] = GenAiOperation.executeTool;
      if (argsHash !== undefined) attributes[TelltaleAttr.toolArgsHash] = argsHash;
      if (opts?.retry !== undefined) return execute(name, attributes, opts, (s) => fn(args, s), { value: args });
      const settings = resolveContent(opts?.capture, contentOptions);
      addInputContent(attributes, StepKind.tool, args, settings);
      const attempt = opts?.attempt ?? 1;
      attributes[TelltaleAttr.stepAttempt] = attempt;
      const content = { kind: StepKind.tool, settings, autoOutput: true };
      return runInSpan(env, { name, attempt, attributes, content }, fn, args);
    },
    llm: (name, model, fn, opts) => {
      const problem = llmProblem(name, model, fn, opts);
      if (problem !== undefined) return Promise.reject(argumentError('llm', name, problem));
      const spec: LlmModel = typeof model === 'string' ? { model } : model;
      const attributes = stepAttributes(StepKind.llm, name, opts);
      attributes[OtelAttr.genAiOperationName] = spec.operation ?? GenAiOperation.chat;
      attributes[OtelAttr.genAiRequestModel] = spec.model;
      if (spec.provider !== undefined) attributes[OtelAttr.genAiProviderName] = spec.provider;
      return execute(name, attributes, opts, fn);
    },
    retry: (name, fn, opts) => {
      const problem = retryProblem(name, fn, opts);
      if (problem !== undefined) return Promise.reject(argumentError('retry', name, problem));
      const { attempts, backoff, retryIf, kind = StepKind.act, ...stepOpts } = opts;
      return execute(
        name,
        stepAttributes(kind, name, stepOpts),
        { ...stepOpts, retry: { attempts, backoff, retryIf } },
        fn,
        stateInput(stepOpts),
      );
    },
  };
}

/** The state a step saw is what it was given: its input, unless the step records its own (recordInput). */
function stateInput(opts: StepOptions | undefined): { value: unknown } | undefined {
  return opts?.state === undefined ? undefined : { value: opts.state };
}

/** Adds a step's captured input to its attributes (nothing under `capture: 'none'`); a failure is a fault, not the step's. */
function addInputContent(
  attributes: Attributes,
  kind: string,
  value: unknown,
  settings: ReturnType<typeof resolveContent>,
): void {
  if (settings.mode === 'none') return;
  try {
    Object.assign(attributes, contentAttributes(kind, 'input', value, settings));
  } catch (err) {
    reportFault('span.attribute', err);
  }
}
