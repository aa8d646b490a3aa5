import { setFaultHandler } from './internal/reportFault.js';
import type { TelltaleErrorHandler } from './internal/reportFault.js';

export type { TelltaleErrorHandler } from './internal/reportFault.js';

/**
 * Replaces the handler of internal telemetry faults (a span that failed to
 * start or end, a value that could not be hashed, a failed export, an
 * unusable endpoint…). The SDK never throws these into the agent. Each fault
 * is a `TelltaleError` whose `cause` is the original error; its code is
 * `INVALID_CONFIG` for a setting the SDK cannot use (an endpoint that is not
 * an http(s) URL, an invalid `capture`, `init` called again with other
 * options), `UNAVAILABLE` for spans not exported (a failed export, a full
 * queue, a span started after `shutdown()`), `INTERNAL` otherwise. The
 * default handler `console.warn`s once per kind of fault. Pass `undefined` to
 * restore it.
 */
export function setErrorHandler(handler: TelltaleErrorHandler | undefined): void {
  setFaultHandler(handler);
}
