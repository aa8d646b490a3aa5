import type { FaultKind } from './reportFault.js';
import { reportFault } from './reportFault.js';
import { counters } from './stats.js';

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
    if (outcome === 'timeout') reportFault(kind, new Error(`gave up after ${timeoutMs} ms${unexported()}`));
  } catch (err) {
    reportFault(kind, err);
  } finally {
    clearTimeout(timer);
  }
}

/** What a flush or shutdown that gave up leaves behind, in the SDK's counters (all its processors). */
function unexported(): string {
  const { queued, exporting } = counters;
  if (queued + exporting === 0) return '';
  return `, ${queued + exporting} spans not exported yet (${queued} queued, ${exporting} in an export the exporter may still be retrying)`;
}
