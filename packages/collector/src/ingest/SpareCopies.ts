/**
 * Buffers for copies of messages that are read once and then let go of (an
 * ingest worker's copy of a request's spans message, kept until it computes
 * the request's run facts), reused rather than allocated for each: a fresh
 * buffer of about 600 KiB per request is zero-filled, faulted in page by
 * page, and left for the garbage collector and the allocator to hand back.
 *
 * `copy` takes a spare (or makes one, with room to grow) and `release` gives
 * it back once nothing reads the copy. At most `keep` spares of at most
 * `maxBytes` each are kept; a larger copy is made for its message alone.
 */
export class SpareCopies {
  private readonly spares: ArrayBuffer[] = [];

  constructor(
    private readonly keep: number,
    private readonly maxBytes: number,
  ) {}

  /** `bytes` copied into a spare buffer (or a new one). Its owner calls `release` when done with it. */
  copy(bytes: Uint8Array): Uint8Array {
    const n = bytes.byteLength;
    let buffer = this.spares.pop();
    // a spare too small is let go of: requests of one source are much alike, so the next fits the larger one
    if (buffer === undefined || buffer.byteLength < n)
      buffer = new ArrayBuffer(n > this.maxBytes ? n : Math.min(this.maxBytes, Math.ceil(n * 1.25)));
    const copy = new Uint8Array(buffer, 0, n);
    copy.set(bytes);
    return copy;
  }

  /** Gives back the buffer of a copy that nothing reads any more. */
  release(copy: Uint8Array): void {
    const buffer = copy.buffer as ArrayBuffer;
    if (buffer.byteLength > this.maxBytes || this.spares.length >= this.keep || this.spares.includes(buffer)) return;
    this.spares.push(buffer);
  }

  /** Spares kept now. */
  get size(): number {
    return this.spares.length;
  }
}
