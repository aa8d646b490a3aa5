/**
 * Waits for `work` at most `ms`: true when it settled in time (its rejection
 * is passed on), false when the time ran out first. The timer never keeps the
 * process alive, and `work` goes on unobserved after a time-out.
 */
export async function withinMs(ms: number, work: Promise<unknown>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
    timer.unref();
  });
  try {
    return await Promise.race([work.then(() => true as const), timedOut]);
  } finally {
    clearTimeout(timer);
  }
}
