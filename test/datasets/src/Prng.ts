/** splitmix32 step: turns any 32-bit input into a well-mixed 32-bit output. */
function splitmix32(state: number): number {
  let z = (state + 0x9e3779b9) | 0;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
}

/** murmur3's 32-bit finaliser: a bijection on 32-bit integers (distinct in → distinct out). */
export function fmix32(x: number): number {
  let h = x >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

const BYTE_HEX: readonly string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** Eight lower-case hex digits of a 32-bit integer. */
export function hex8(x: number): string {
  return BYTE_HEX[x >>> 24]! + BYTE_HEX[(x >>> 16) & 255]! + BYTE_HEX[(x >>> 8) & 255]! + BYTE_HEX[x & 255]!;
}

/**
 * A seeded pseudo-random generator (sfc32, 128-bit state, seeded through
 * splitmix32). `new Prng(seed, stream)` gives independent streams, so every run
 * of a dataset draws from its own stream and can be regenerated on its own.
 */
export class Prng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  private spareNormal: number | undefined;

  constructor(seed: number, stream = 0) {
    let s = splitmix32((seed >>> 0) ^ Math.imul(stream >>> 0, 0x27d4eb2d));
    this.a = s;
    s = splitmix32(s ^ stream);
    this.b = s;
    s = splitmix32(s + 0x6d2b79f5);
    this.c = s;
    s = splitmix32(s ^ (seed >>> 0));
    this.d = s | 1;
    for (let i = 0; i < 12; i++) this.uint32();
  }

  /** A uniform 32-bit unsigned integer. */
  uint32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.uint32() / 4294967296;
  }

  /** Uniform integer in [lo, hi] (both inclusive). */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** A standard normal draw (Box–Muller, the second value kept for the next call). */
  normal(): number {
    if (this.spareNormal !== undefined) {
      const v = this.spareNormal;
      this.spareNormal = undefined;
      return v;
    }
    let u = this.next();
    while (u === 0) u = this.next();
    const v = this.next();
    const r = Math.sqrt(-2 * Math.log(u));
    this.spareNormal = r * Math.sin(2 * Math.PI * v);
    return r * Math.cos(2 * Math.PI * v);
  }

  /** Lognormal with the given median and log-space standard deviation. */
  lognormal(median: number, sigma: number): number {
    return median * Math.exp(sigma * this.normal());
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new RangeError('pick from an empty list');
    return item;
  }

  /** An index drawn in proportion to the weights. */
  weightedIndex(weights: readonly number[]): number {
    let total = 0;
    for (const w of weights) total += w;
    let x = this.next() * total;
    for (let i = 0; i < weights.length; i++) {
      x -= weights[i] ?? 0;
      if (x < 0) return i;
    }
    return weights.length - 1;
  }

  /** `n` random lower-case hex digits (n a multiple of 8). */
  hex(n: number): string {
    let out = '';
    for (let i = 0; i < n; i += 8) out += hex8(this.uint32());
    return out;
  }
}
