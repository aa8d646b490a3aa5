import type { FaultKind } from './reportFault.js';
import { reportFault } from './reportFault.js';

export const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * Waits for `work` at most `timeoutMs`; a rejection or a timeout is reported
 * as a fault, never thrown. The timer does not keep the process alive.
 */
export async function withTimeout(
  kind: FaultKind,
  work: Promise<unknown>,
  timeoutMs = DEFAULT_TIMEOUT_MS,
): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
    timer.unref();
  });
  try {
    const outcome = await Promise.race([work.then(() => 'done' as const), timeout]);
    if (outcome === 'timeout') reportFault(kind, new Error(`gave up after ${timeoutMs} ms`));
  } catch (err) {
    reportFault(kind, err);
  } finally {
    clearTimeout(timer);
  }
}
