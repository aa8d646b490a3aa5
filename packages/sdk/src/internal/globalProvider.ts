import { ProxyTracerProvider, trace } from '@opentelemetry/api';
import { TelltaleError, TelltaleErrorCode } from '@telltale/semconv';
import { reportFault } from './reportFault.js';

/** True when a tracer provider other than the API's no-op one is registered globally. */
export function isGlobalProviderRegistered(): boolean {
  const global = trace.getTracerProvider();
  if (!(global instanceof ProxyTracerProvider)) return true;
  // A fresh proxy's delegate is the API's no-op provider.
  return global.getDelegate() !== new ProxyTracerProvider().getDelegate();
}

let shutDown = false;

/** `shutdown()` removed the provider `init()` registered (true), or `init()` runs again (false). */
export function setShutDown(value: boolean): void {
  shutDown = value;
}

/**
 * Called as the global wrappers start a span: the first span started after
 * `shutdown()` while no provider is registered is reported, once (it is not
 * exported, nor are the ones after it).
 */
export function noteGlobalSpan(): void {
  if (!shutDown) return;
  shutDown = false;
  if (isGlobalProviderRegistered()) return;
  const message = 'span started after shutdown(): not exported, nor are later spans until init() runs again';
  reportFault('shutdown', new TelltaleError({ code: TelltaleErrorCode.UNAVAILABLE, message }));
}
