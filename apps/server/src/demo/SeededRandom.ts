/** A small seeded PRNG (mulberry32): the same seed gives the same fleet. */
export class SeededRandom {
  private state: number;

  constructor(seed: number) {
    this.state = Math.floor(seed) >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  /** Integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    // invariant: the demo picks from fixed, non-empty lists (a plain Error)
    if (item === undefined) throw new RangeError('pick from an empty list');
    return item;
  }

  /** Log-normal with the given median; `sigma` is the spread of its logarithm. */
  lognormal(median: number, sigma: number): number {
    const u = 1 - this.next();
    const v = this.next();
    const z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    return median * Math.exp(sigma * z);
  }

  /** An independent generator derived from this one (one per run, in run order). */
  fork(): SeededRandom {
    return new SeededRandom(this.next() * 4294967296);
  }
}
