import { fmix32, hex8, type Prng } from './Prng.js';

const MAX_SPANS_PER_RUN = 0x10000;

/**
 * Identifiers of one run. Unique by construction, not by luck: the first eight
 * hex digits of the run and trace ids are a bijection of the run index, and a
 * span id's two halves are bijections of (run index, span index), so no two
 * spans of a dataset (up to 2^32 runs of 65,536 spans) share an id.
 */
export class RunIds {
  readonly runId: string;
  readonly traceId: string;
  private readonly runMix: number;
  private readonly seed: number;
  private spans = 0;

  constructor(seed: number, runIndex: number, rng: Prng) {
    this.seed = seed >>> 0;
    this.runMix = fmix32((runIndex ^ fmix32(this.seed ^ 0x5bd1e995)) >>> 0);
    const tail = rng.hex(24);
    // UUID v4 layout: version nibble 4, variant nibble 8–b.
    this.runId = `${hex8(fmix32((runIndex ^ this.seed) >>> 0))}-${tail.slice(0, 4)}-4${tail.slice(5, 8)}-${'89ab'[rng.int(0, 3)] ?? '8'}${tail.slice(9, 12)}-${tail.slice(12, 24)}`;
    this.traceId = `${hex8(this.runMix)}${rng.hex(24)}`;
  }

  /** The next span id of this run. */
  nextSpanId(): string {
    const i = this.spans++;
    if (i >= MAX_SPANS_PER_RUN) throw new RangeError(`a run may hold at most ${MAX_SPANS_PER_RUN} spans`);
    const low = fmix32((i ^ this.seed ^ 0x9e3779b9) >>> 0);
    const high = (this.runMix ^ fmix32((i + 0x632be5ab) >>> 0)) >>> 0;
    return hex8(high) + hex8(low);
  }
}
