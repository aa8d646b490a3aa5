/** Timings of one query: one warm-up, then `samplesMs` in run order. */
export interface Timing {
  warmupMs: number;
  samplesMs: number[];
  medianMs: number;
  p90Ms: number;
  /**
   * Median CPU time of the process per call (all threads: chDB's and ours).
   * Less sensitive than wall time to other processes on a shared machine;
   * on an idle 2-core machine a query that parallelises well takes about half of it as wall time.
   */
  cpuMedianMs: number;
}

/** Nearest-rank percentile (the value at 1-based rank ⌈q·n⌉ of the sorted samples). */
export function nearestRank(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.max(1, Math.ceil(q * sorted.length - 1e-9));
  return sorted[Math.min(rank, sorted.length) - 1] ?? Number.NaN;
}

/** Median: the middle sample, or the mean of the two middle ones. */
export function median(sorted: readonly number[]): number {
  const n = sorted.length;
  if (n === 0) return Number.NaN;
  const mid = Math.floor(n / 2);
  return n % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Runs `fn` once to warm up, then `iterations` times, sequentially; every call's result is awaited in full. */
export async function measure(fn: () => Promise<unknown>, iterations: number): Promise<Timing> {
  let t = performance.now();
  await fn();
  const warmupMs = performance.now() - t;
  const samplesMs: number[] = [];
  const cpuMs: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const cpu = process.cpuUsage();
    t = performance.now();
    await fn();
    samplesMs.push(performance.now() - t);
    const used = process.cpuUsage(cpu);
    cpuMs.push((used.user + used.system) / 1000);
  }
  const sorted = [...samplesMs].sort((a, b) => a - b);
  return {
    warmupMs,
    samplesMs,
    medianMs: median(sorted),
    p90Ms: nearestRank(sorted, 0.9),
    cpuMedianMs: median(cpuMs.sort((a, b) => a - b)),
  };
}
