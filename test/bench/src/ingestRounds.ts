import {
  ingestTargets,
  runIngestBench,
  type IngestBenchOptions,
  type IngestReport,
  type OpenLoopSummary,
} from './runIngestBench.js';

/** The round with the median sustained rate (the lower middle one of an even count). */
export function medianRound<T extends { sustainedSpansPerS: number }>(rounds: readonly T[]): T {
  const sorted = [...rounds].sort((a, b) => a.sustainedSpansPerS - b.sustainedSpansPerS);
  const median = sorted[Math.floor((sorted.length - 1) / 2)];
  if (median === undefined) throw new RangeError('no rounds');
  return median;
}

/**
 * Runs the ingest bench `opts.rounds` times, each against a fresh server and
 * data directory, and reports the round with the median sustained rate — the
 * machine is shared, and single runs minutes apart differ by a third. The
 * ceiling is measured once, after the last round, and judged against the
 * median round. Then, unless `latencyShare` is 0, one open-loop round offered
 * that share of the median sustained rate measures the acknowledgement
 * latency: a closed loop's latency is its in-flight count over its rate.
 */
export async function runIngestRounds(opts: IngestBenchOptions & { command: string }): Promise<IngestReport> {
  const reports: IngestReport[] = [];
  for (let i = 0; i < opts.rounds; i++) {
    const last = i === opts.rounds - 1;
    if (opts.rounds > 1) opts.log(`round ${i + 1} of ${opts.rounds}`);
    reports.push(await runIngestBench({ ...opts, ceilingRows: last ? opts.ceilingRows : 0 }));
  }
  const median = medianRound(reports);
  const ceiling = reports.at(-1)?.ceiling;
  const openLoop =
    opts.latencyShare > 0 && opts.offeredSpansPerS === undefined
      ? await openLoopRound(opts, opts.latencyShare * median.sustainedSpansPerS)
      : undefined;
  const report: IngestReport = {
    ...median,
    measuredAt: new Date().toISOString(),
    ceiling,
    ratio: ceiling === undefined ? Number.NaN : median.sustainedSpansPerS / ceiling.rowsPerS,
    // every round must have stored exactly what it acknowledged, not just the median one
    correct: reports.every((r) => r.correct) && (openLoop?.correct ?? true),
    ...(openLoop === undefined ? {} : { openLoop }),
    rounds: reports.map((r) => ({
      sustainedSpansPerS: r.sustainedSpansPerS,
      ackedSpansPerS: r.ackedSpansPerS,
      storedSpansPerS: r.windowDrainSpansPerS,
      serverCpuUsPerSpan: (r.server.cpuCores / r.sustainedSpansPerS) * 1e6,
      peakRssMiB: r.server.peakRssMiB,
      correct: r.correct,
    })),
  };
  report.targets = ingestTargets(report);
  return report;
}

/** One open-loop round (at most 60 s, no ceiling) at `offeredSpansPerS`. */
async function openLoopRound(
  opts: IngestBenchOptions & { command: string },
  offeredSpansPerS: number,
): Promise<OpenLoopSummary> {
  opts.log(`open-loop latency round: ${Math.round(offeredSpansPerS)} spans/s offered`);
  const r = await runIngestBench({
    ...opts,
    offeredSpansPerS,
    seconds: Math.min(opts.seconds, 60),
    ceilingRows: 0,
  });
  return {
    share: opts.latencyShare,
    offeredSpansPerS,
    ackedSpansPerS: r.ackedSpansPerS,
    latencyMs: r.latencyMs,
    stagesMs: r.stagesMs,
    peakRssMiB: r.server.peakRssMiB,
    correct: r.correct,
  };
}
