/** This thread's CPU time so far (and its GC helpers'), in µs. */
export function cpuUs(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}

/**
 * Runs `round` once to warm up, then `rounds` times, and prints one JSON
 * line: each round's CPU-µs per span, the best and the median.
 */
export function printRounds(requestsPerRound: number, rounds: number, round: () => number): void {
  round();
  const samples = Array.from({ length: rounds }, round);
  const sorted = [...samples].sort((a, b) => a - b);
  console.log(
    JSON.stringify({
      requestsPerRound,
      rounds,
      usPerSpan: samples.map((s) => Number(s.toFixed(3))),
      bestUsPerSpan: Number(sorted[0]!.toFixed(3)),
      medianUsPerSpan: Number(sorted[Math.floor(rounds / 2)]!.toFixed(3)),
    }),
  );
}
