/**
 * Calls `probe` every `everyMs` until it answers (not `undefined`), within
 * `timeoutMs`; a probe that throws is tried again. On timeout the error names
 * `what` and the last error seen.
 */
export async function poll<T>(
  what: string,
  timeoutMs: number,
  probe: () => Promise<T | undefined>,
  everyMs = 250,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const got = await probe();
      if (got !== undefined) return got;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`${what} not reached in ${timeoutMs} ms (${String(last)})`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
