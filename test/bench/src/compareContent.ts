import { loadavg } from 'node:os';
import { median } from './measure.js';
import { runIngestBench, type IngestBenchOptions, type IngestReport } from './runIngestBench.js';

/** The content run may be this much slower than the lean run (the sustained rates' medians). */
export const CONTENT_SLOWDOWN_LIMIT = 0.15;

export type ContentMode = 'lean' | 'content';

/** One round of the comparison. */
export interface ContentRound {
  mode: ContentMode;
  sustainedSpansPerS: number;
  ackedSpansPerS: number;
  storedSpansPerS: number;
  serverCpuUsPerSpan: number;
  peakRssMiB: number;
  bodyBytes: number;
  ackedSpans: number;
  storedSpans: number;
  ackedContentSpans: number;
  contentRows: number;
  contentTextBytes: number;
  spanRowsWithContent: number;
  loadBefore: number;
  loadAfter: number;
  correct: boolean;
}

export interface ContentComparison {
  measuredAt: string;
  command: string;
  contentBytes: number;
  seconds: number;
  warmupSeconds: number;
  concurrency: number;
  rounds: ContentRound[];
  /** Median sustained spans/s per mode (the mean of the middle two of an even count). */
  leanMedian: number;
  contentMedian: number;
  /** contentMedian / leanMedian. */
  ratio: number;
  withinLimit: boolean;
  correct: boolean;
  loadAverage: { before: number; after: number };
  machine: IngestReport['machine'];
  llmSpansPerRequest: number;
}

function roundOf(mode: ContentMode, r: IngestReport): ContentRound {
  return {
    mode,
    sustainedSpansPerS: r.sustainedSpansPerS,
    ackedSpansPerS: r.ackedSpansPerS,
    storedSpansPerS: r.windowDrainSpansPerS,
    serverCpuUsPerSpan: (r.server.cpuCores / r.sustainedSpansPerS) * 1e6,
    peakRssMiB: r.server.peakRssMiB,
    bodyBytes: r.payload.bodyBytes,
    ackedSpans: r.load.ackedSpans,
    storedSpans: r.stored.count,
    ackedContentSpans: r.load.ackedContentSpans,
    contentRows: r.stored.content.rows,
    contentTextBytes: r.stored.content.textBytes,
    spanRowsWithContent: r.stored.content.spanRowsWithContent,
    loadBefore: r.loadAverage.before,
    loadAfter: r.loadAverage.after,
    correct: r.correct,
  };
}

/** The comparison's figures from its rounds (separate from running them, so it can be tested alone). */
export function summariseContentRounds(
  rounds: ContentRound[],
  facts: Omit<ContentComparison, 'rounds' | 'leanMedian' | 'contentMedian' | 'ratio' | 'withinLimit' | 'correct'>,
): ContentComparison {
  const medianOf = (mode: ContentMode): number =>
    median(
      rounds
        .filter((r) => r.mode === mode)
        .map((r) => r.sustainedSpansPerS)
        .sort((a, b) => a - b),
    );
  const leanMedian = medianOf('lean');
  const contentMedian = medianOf('content');
  const ratio = contentMedian / leanMedian;
  return {
    ...facts,
    rounds,
    leanMedian,
    contentMedian,
    ratio,
    withinLimit: ratio >= 1 - CONTENT_SLOWDOWN_LIMIT,
    correct: rounds.every((r) => r.correct),
  };
}

/**
 * Lean and content rounds alternated in one run (lean first), `opts.rounds`
 * of each, each against a fresh server: the machine is shared, so only
 * rates measured side by side are compared.
 */
export async function compareContent(
  opts: IngestBenchOptions & { command: string },
  contentBytes: number,
): Promise<ContentComparison> {
  const loadBefore = loadavg()[0] ?? 0;
  const rounds: ContentRound[] = [];
  let last: IngestReport | undefined;
  let llmSpansPerRequest = 0;
  for (let i = 0; i < opts.rounds * 2; i++) {
    const mode: ContentMode = i % 2 === 0 ? 'lean' : 'content';
    opts.log(`round ${i + 1} of ${opts.rounds * 2}: ${mode}`);
    last = await runIngestBench({ ...opts, ceilingRows: 0, contentBytes: mode === 'lean' ? 0 : contentBytes });
    if (mode === 'content') llmSpansPerRequest = last.payload.contentSpansPerRequest;
    const round = roundOf(mode, last);
    opts.log(
      `${mode}: ${Math.round(round.sustainedSpansPerS).toLocaleString('en-US')} spans/s sustained, ${round.serverCpuUsPerSpan.toFixed(1)} CPU-µs/span; load ${round.loadBefore.toFixed(2)} → ${round.loadAfter.toFixed(2)}`,
    );
    rounds.push(round);
  }
  if (last === undefined) throw new RangeError('no rounds');
  return summariseContentRounds(rounds, {
    measuredAt: new Date().toISOString(),
    command: opts.command,
    contentBytes,
    seconds: opts.seconds,
    warmupSeconds: opts.warmupSeconds,
    concurrency: opts.concurrency,
    loadAverage: { before: loadBefore, after: loadavg()[0] ?? 0 },
    machine: last.machine,
    llmSpansPerRequest,
  });
}
