import type { SpanRecord } from '@telltale/store';
import type { DatasetSpec } from './DatasetSpec.js';
import type { DatasetTruth } from './DatasetTruth.js';
import { generateDatasetChunks } from './generateDatasetChunks.js';

export interface Dataset {
  spans: SpanRecord[];
  truth: DatasetTruth;
}

/** The whole dataset in memory: for test-sized specs (use {@link generateDatasetChunks} for millions of spans). */
export function generateDataset(spec: DatasetSpec): Dataset {
  const spans: SpanRecord[] = [];
  let truth: DatasetTruth | undefined;
  for (const chunk of generateDatasetChunks(spec, { runsPerChunk: 10_000 })) {
    for (const s of chunk.spans) spans.push(s);
    if (chunk.last) truth = chunk.truthSoFar();
  }
  if (truth === undefined) throw new Error('dataset generation produced no final chunk');
  return { spans, truth };
}
