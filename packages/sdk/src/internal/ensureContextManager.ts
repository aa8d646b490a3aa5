import { context, createContextKey } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { guard } from './reportFault.js';

const PROBE_KEY = createContextKey('telltale.context.probe');
let checked = false;

/** True when the global context manager actually propagates context (i.e. it is not the no-op one). */
export function contextPropagates(): boolean {
  const probe = context.active().setValue(PROBE_KEY, true);
  return context.with(probe, () => context.active().getValue(PROBE_KEY) === true);
}

/**
 * Installs an AsyncLocalStorage context manager unless a working one is
 * already registered (the user's own OTel setup keeps its manager). Checked
 * once per process, at the first span or at `init`.
 */
export function ensureContextManager(): void {
  if (checked) return;
  checked = true;
  guard('context', () => {
    if (contextPropagates()) return;
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  });
}
