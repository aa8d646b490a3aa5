import type { SpanRecord } from '@telltale/store';
import { Prng } from './Prng.js';

export interface DeliveryOptions {
  /** Batch sizes are drawn uniformly in [min, max] (default [50, 500]). */
  batchSize?: readonly [min: number, max: number];
  /** Share of run roots delivered late: one to three batches after their run's other spans (default 0.3). */
  lateRootShare?: number;
}

/**
 * The same spans in the order an exporter fleet might deliver them: each
 * run's spans in end order (children before their parents, the root last),
 * runs interleaved at random, a share of the roots held back for one to
 * three more batches, cut into batches of random size and shuffled within
 * each batch. Deterministic for a seed; every span appears exactly once.
 */
export function shuffleForDelivery(
  spans: readonly SpanRecord[],
  seed: number,
  opts: DeliveryOptions = {},
): SpanRecord[][] {
  const rng = new Prng(seed, 0x5f3759df);
  const [minBatch, maxBatch] = opts.batchSize ?? [50, 500];
  if (!(Number.isInteger(minBatch) && minBatch >= 1 && maxBatch >= minBatch))
    throw new RangeError('batchSize must be integers 1 ≤ min ≤ max');
  const lateShare = opts.lateRootShare ?? 0.3;

  const runs = new Map<string, SpanRecord[]>();
  for (const s of spans) {
    const list = runs.get(s.runId);
    if (list === undefined) runs.set(s.runId, [s]);
    else list.push(s);
  }
  const queues = [...runs.values()].map((list) =>
    [...list].sort((a, b) =>
      a.endTimeUnixNano < b.endTimeUnixNano ? -1 : a.endTimeUnixNano > b.endTimeUnixNano ? 1 : 0,
    ),
  );
  const cursors = queues.map(() => 0);
  const active = queues.map((_, i) => i);
  const stream: SpanRecord[] = [];
  const late: Array<{ span: SpanRecord; at: number }> = [];
  while (active.length > 0) {
    const slot = rng.int(0, active.length - 1);
    const q = active[slot]!;
    const span = queues[q]![cursors[q]!++]!;
    if (span.isRunRoot && rng.chance(lateShare))
      late.push({ span, at: stream.length + rng.int(maxBatch, 3 * maxBatch) });
    else stream.push(span);
    if (cursors[q] === queues[q]!.length) {
      active[slot] = active[active.length - 1]!;
      active.pop();
    }
  }
  late.sort((a, b) => b.at - a.at);
  for (const { span, at } of late) stream.splice(Math.min(at, stream.length), 0, span);

  const batches: SpanRecord[][] = [];
  for (let i = 0; i < stream.length;) {
    const size = rng.int(minBatch, maxBatch);
    const batch = stream.slice(i, i + size);
    for (let j = batch.length - 1; j > 0; j--) {
      const k = rng.int(0, j);
      [batch[j], batch[k]] = [batch[k]!, batch[j]!];
    }
    batches.push(batch);
    i += size;
  }
  return batches;
}
