import { TelltaleError, TelltaleErrorCode } from '@telltale/semconv';

/** Receives every internal telemetry fault; never sees the agent's own errors. */
export type TelltaleErrorHandler = (error: TelltaleError) => void;

/** Where in the SDK a fault happened; the default handler warns once per kind. */
export type FaultKind =
  | 'span.start'
  | 'span.end'
  | 'span.attribute'
  | 'context'
  | 'hash'
  | 'retry'
  | 'export'
  | 'init'
  | 'shutdown'
  | 'processor'
  | 'queue'
  | 'config';

const warned = new Set<FaultKind>();
/** Causes already reported (a failed export resurfaces as a flush/shutdown rejection). */
const reported = new WeakSet<object>();

const defaultHandler: TelltaleErrorHandler = () => undefined;
let handler: TelltaleErrorHandler = defaultHandler;

export function setFaultHandler(next: TelltaleErrorHandler | undefined): void {
  handler = next ?? defaultHandler;
}

/**
 * Reports an internal fault, once per cause object. Never throws, whatever the
 * handler does. The fault keeps the code of a `TelltaleError` cause.
 */
export function reportFault(kind: FaultKind, cause: unknown): void {
  try {
    if (typeof cause === 'object' && cause !== null) {
      if (reported.has(cause)) return;
      reported.add(cause);
    }
    const detail = cause instanceof Error ? cause.message : String(cause);
    const code =
      cause instanceof TelltaleError
        ? cause.code
        : kind === 'export' || kind === 'queue'
          ? TelltaleErrorCode.UNAVAILABLE
          : TelltaleErrorCode.INTERNAL;
    const error = new TelltaleError({ code, message: `telltale sdk ${kind}: ${detail}`, cause });
    if (handler === defaultHandler) {
      if (warned.has(kind)) return;
      warned.add(kind);
      console.warn(`[telltale] ${error.message} (further ${kind} faults are not logged; see setErrorHandler)`);
      return;
    }
    handler(error);
  } catch {
    // A faulty handler must not reach the agent either.
  }
}

/** Runs `fn`; an exception becomes a reported fault and `undefined`. */
export function guard<T>(kind: FaultKind, fn: () => T): T | undefined {
  try {
    return fn();
  } catch (err) {
    reportFault(kind, err);
    return undefined;
  }
}
