import type { SpanRecord } from '@telltale/store';
import type { DatasetSpec } from './DatasetSpec.js';
import type { DatasetTruth, RunTruth } from './DatasetTruth.js';
import { TruthAccumulator } from './TruthAccumulator.js';
import { simulateRun, simulationContext } from './simulateRun.js';
import { validateSpec } from './validateSpec.js';

export interface DatasetChunk {
  /** Index of the chunk's first run in the dataset. */
  firstRunIndex: number;
  spans: SpanRecord[];
  /** Truth of this chunk's runs. */
  runs: RunTruth[];
  /** True on the last chunk. */
  last: boolean;
  /** The truth of every run generated so far (after the last chunk: the dataset's truth). Computed on call. */
  truthSoFar(): DatasetTruth;
}

export interface ChunkOptions {
  /** Runs per chunk (default 1,000 — about 10k spans with the small preset, 100k with the bench preset). */
  runsPerChunk?: number;
}

/**
 * Streams a dataset: only one chunk of spans is alive at a time (what the
 * caller keeps is up to it), so ten million spans never sit in memory
 * together. Chunks concatenated are exactly `generateDataset(spec).spans`.
 */
export function* generateDatasetChunks(
  spec: DatasetSpec,
  opts: ChunkOptions = {},
): Generator<DatasetChunk, void, undefined> {
  validateSpec(spec);
  const size = opts.runsPerChunk ?? 1_000;
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`runsPerChunk must be a positive integer, got ${size}`);
  const ctx = simulationContext(spec);
  const acc = new TruthAccumulator(spec);
  for (let first = 0; first < spec.runs || (first === 0 && spec.runs === 0); first += size) {
    const spans: SpanRecord[] = [];
    const runs: RunTruth[] = [];
    const end = Math.min(spec.runs, first + size);
    for (let i = first; i < end; i++) {
      const result = simulateRun(ctx, i);
      for (const s of result.spans) spans.push(s);
      runs.push(result.truth);
      acc.add(result);
    }
    yield { firstRunIndex: first, spans, runs, last: end >= spec.runs, truthSoFar: () => acc.truth() };
  }
}
