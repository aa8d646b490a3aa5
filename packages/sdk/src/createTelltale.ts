import { randomUUID } from 'node:crypto';
import { trace } from '@opentelemetry/api';
import type { Attributes, Tracer, TracerProvider } from '@opentelemetry/api';
import { GenAiOperation, OtelAttr, StepKind, TelltaleAttr } from '@telltale/semconv';
import { guard } from './internal/reportFault.js';
import { runAttempts } from './internal/runAttempts.js';
import { runInSpan } from './internal/runInSpan.js';
import type { SpanEnv } from './internal/runInSpan.js';
import { attemptAttributes, stepAttributes } from './internal/stepAttributes.js';
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

/** The step wrappers, bound to one tracer provider. */
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
  /** A model call; record its usage with `step.recordUsage`. */
  llm: <T>(name: string, model: LlmModel, fn: StepFn<T>, opts?: StepOptions) => Promise<T>;
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
  const contentOptions: ContentOptions = {
    ...(options.capture === undefined ? {} : { capture: options.capture }),
    ...(options.redact === undefined ? {} : { redact: options.redact }),
  };
  let ownTracer: Tracer | undefined;
  const getTracer = (): Tracer =>
    tracerProvider === undefined
      ? trace.getTracer(SDK_NAME, SDK_VERSION)
      : (ownTracer ??= tracerProvider.getTracer(SDK_NAME, SDK_VERSION));
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
    const inputAttributes =
      input === undefined
        ? {}
        : (guard('span.attribute', () => contentAttributes(kind, 'input', input.value, settings)) ?? {});
    const withInput = { ...attributes, ...inputAttributes };
    const policy = opts?.retry;
    if (policy === undefined) {
      const attempt = opts?.attempt ?? 1;
      return runInSpan(
        env,
        { name, attempt, attributes: { ...withInput, ...attemptAttributes(attempt, undefined) }, content },
        fn,
      );
    }
    return runAttempts(policy, (attempt, max) =>
      runInSpan(env, { name, attempt, attributes: { ...withInput, ...attemptAttributes(attempt, max) }, content }, fn),
    );
  }

  const step: Telltale['step'] = (kind, name, fn, opts) => execute(name, stepAttributes(kind, name, opts), opts, fn);

  return {
    run: (name, fn, opts) => {
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
    plan: (name, fn, opts) => step(StepKind.plan, name, fn, opts),
    act: (name, fn, opts) => step(StepKind.act, name, fn, opts),
    validate: (name, fn, opts) => step(StepKind.validate, name, fn, opts),
    step,
    tool: (name, args, fn, opts) => {
      const specific: Attributes = {
        [TelltaleAttr.toolName]: name,
        [OtelAttr.genAiToolName]: name,
        [OtelAttr.genAiOperationName]: GenAiOperation.executeTool,
      };
      const argsHash = guard('hash', () => stableHash(args));
      if (argsHash !== undefined) specific[TelltaleAttr.toolArgsHash] = argsHash;
      return execute(name, stepAttributes(StepKind.tool, name, opts, specific), opts, (s) => fn(args, s), {
        value: args,
      });
    },
    llm: (name, model, fn, opts) => {
      const specific: Attributes = {
        [OtelAttr.genAiOperationName]: model.operation ?? GenAiOperation.chat,
        [OtelAttr.genAiRequestModel]: model.model,
      };
      if (model.provider !== undefined) specific[OtelAttr.genAiProviderName] = model.provider;
      return execute(name, stepAttributes(StepKind.llm, name, opts, specific), opts, fn);
    },
    retry: (name, fn, opts) => {
      const { attempts, backoff, retryIf, kind = StepKind.act, ...stepOpts } = opts;
      return execute(
        name,
        stepAttributes(kind, name, stepOpts),
        { ...stepOpts, retry: { attempts, backoff, retryIf } },
        fn,
      );
    },
  };
}
