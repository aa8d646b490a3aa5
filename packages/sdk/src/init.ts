import { ProxyTracerProvider, propagation, trace } from '@opentelemetry/api';
import type { TracerProvider } from '@opentelemetry/api';
import { TelltaleError, TelltaleErrorCode } from '@telltale/semconv';
import { createTracerProvider } from './createTracerProvider.js';
import type { TracerProviderOptions } from './createTracerProvider.js';
import { setErrorHandler } from './errorHandler.js';
import { captureProblem, isRecord, shown } from './internal/arguments.js';
import { ensureContextManager } from './internal/ensureContextManager.js';
import { isGlobalProviderRegistered, setShutDown } from './internal/globalProvider.js';
import { installPropagator } from './internal/installPropagator.js';
import { reportFault } from './internal/reportFault.js';
import { withTimeout } from './internal/withTimeout.js';
import { setContentDefaults, type ContentOptions } from './internal/contentCapture.js';

export interface TelltaleInitOptions extends TracerProviderOptions, ContentOptions {
  /** Receives internal telemetry faults and failed exports (see `setErrorHandler`). */
  onError?: (error: unknown) => void;
}

export interface ShutdownOptions {
  /** Give up waiting after this many ms (default 10 000); never rejects. */
  timeoutMs?: number;
}

export interface TelltaleHandle {
  /** False when another tracer provider was already registered and is used instead of ours. */
  readonly installed: boolean;
  /** The provider spans go to (ours, or the one already registered). */
  readonly tracerProvider: TracerProvider;
  /** Exports buffered spans now. Never rejects. */
  forceFlush(opts?: ShutdownOptions): Promise<void>;
  /** Same as the module-level `shutdown()`. */
  shutdown(opts?: ShutdownOptions): Promise<void>;
}

interface Installed {
  handle: TelltaleHandle;
  close: (opts?: ShutdownOptions) => Promise<void>;
}

let current: Installed | undefined;
/** The options `current` was set up with. */
let currentOptions: TelltaleInitOptions = {};

/**
 * Sets up tracing for the module-level `run`, `tool`… wrappers. If a global
 * tracer provider is already registered (your own OTel setup), it is used
 * as is — add `RunIdSpanProcessor` to it to stamp run ids on foreign spans.
 * Otherwise a provider exporting OTLP protobuf to `endpoint` is registered
 * globally, with the W3C trace-context + baggage propagator (unless one is
 * registered already), plus an AsyncLocalStorage context manager if none
 * works yet. Unset options come from the environment: `TELLTALE_ENDPOINT`,
 * `TELLTALE_API_KEY`, then the standard `OTEL_EXPORTER_OTLP_*`,
 * `OTEL_SERVICE_NAME` and `OTEL_RESOURCE_ATTRIBUTES`. Settings it cannot use
 * go to the error handler: an unknown `capture` is ignored, and with an
 * endpoint that is not an http(s) URL no span is exported.
 * Calling `init` again before `shutdown` returns the same handle; options
 * given to that call that differ from the first call's are reported as
 * ignored. Never throws.
 */
export function init(opts: TelltaleInitOptions = {}): TelltaleHandle {
  if (current !== undefined) {
    reportIgnoredOptions(opts);
    return current.handle;
  }
  const given: TelltaleInitOptions = isRecord(opts) ? opts : {};
  if (given.onError !== undefined) setErrorHandler(given.onError);
  if (given !== opts) reportConfig(`init: options must be an object, got ${shown(opts)}: ignored`);
  const badCapture = captureProblem(given.capture);
  if (badCapture !== undefined) reportConfig(`init: ${badCapture}: ignored, nothing is captured`);
  setContentDefaults({
    ...(given.capture === undefined || badCapture !== undefined ? {} : { capture: given.capture }),
    ...(given.redact === undefined ? {} : { redact: given.redact }),
  });
  currentOptions = given;
  setShutDown(false);
  try {
    ensureContextManager();
    current = isGlobalProviderRegistered() ? adoptExisting() : install(given);
  } catch (err) {
    reportFault('init', err);
    current = adoptExisting();
  }
  return current.handle;
}

/** Flushes and shuts down what `init` created. Resolves (never rejects), even if the endpoint is down. */
export async function shutdown(opts?: ShutdownOptions): Promise<void> {
  const installed = current;
  current = undefined;
  if (installed !== undefined) await installed.close(opts);
}

function install(opts: TelltaleInitOptions): Installed {
  const provider = createTracerProvider(opts);
  if (!trace.setGlobalTracerProvider(provider)) {
    void provider.shutdown().catch(() => undefined);
    return adoptExisting();
  }
  const ownPropagator = installPropagator();
  const onBeforeExit = (): void => void shutdown();
  process.once('beforeExit', onBeforeExit);
  const close = async (o?: ShutdownOptions): Promise<void> => {
    process.removeListener('beforeExit', onBeforeExit);
    await withTimeout('shutdown', provider.shutdown(), o?.timeoutMs);
    try {
      trace.disable();
      if (ownPropagator) propagation.disable();
      setShutDown(true);
    } catch (err) {
      reportFault('shutdown', err);
    }
  };
  const handle: TelltaleHandle = {
    installed: true,
    tracerProvider: provider,
    forceFlush: (o) => withTimeout('export', provider.forceFlush(), o?.timeoutMs),
    shutdown: async (o) => {
      if (current?.handle === handle) current = undefined;
      await close(o);
    },
  };
  return { handle, close };
}

/** Uses the already registered provider; shutdown leaves it to its owner. */
function adoptExisting(): Installed {
  const global = trace.getTracerProvider();
  const delegate = global instanceof ProxyTracerProvider ? global.getDelegate() : global;
  const flushable = delegate as { forceFlush?: () => Promise<void> };
  const close = (): Promise<void> => Promise.resolve();
  const handle: TelltaleHandle = {
    installed: false,
    tracerProvider: global,
    forceFlush: (o) =>
      typeof flushable.forceFlush === 'function'
        ? withTimeout('export', flushable.forceFlush(), o?.timeoutMs)
        : Promise.resolve(),
    shutdown: async () => {
      if (current?.handle === handle) current = undefined;
      await close();
    },
  };
  return { handle, close };
}

function reportConfig(message: string): void {
  reportFault('config', new TelltaleError({ code: TelltaleErrorCode.INVALID_CONFIG, message }));
}

/** A later `init` call keeps the first call's setup: the options it gives that differ are reported. */
function reportIgnoredOptions(opts: unknown): void {
  const given = isRecord(opts) ? opts : { options: opts };
  const first = currentOptions as Record<string, unknown>;
  const differing = Object.keys(given).filter((key) => given[key] !== undefined && !sameValue(given[key], first[key]));
  if (differing.length === 0) return;
  const message = `init() already ran, so the options of this call are ignored (${differing.join(', ')} differ); call shutdown() first to apply them`;
  reportFault('init', new TelltaleError({ code: TelltaleErrorCode.INVALID_CONFIG, message }));
}

/** Equal primitives, the same object, or plain objects / arrays of equal values. */
function sameValue(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (!isPlainData(a) || !isPlainData(b) || Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && sameValue(a[k], b[k]));
}

function isPlainData(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return Array.isArray(value) || proto === Object.prototype || proto === null;
}
