/** A request body: whole, or in the pieces it was read in (back to back). */
export type ExportBody = Uint8Array | readonly Uint8Array[];

/** The body as one buffer: the piece itself when there is one, else the pieces copied into a new buffer. */
export function joinBody(body: ExportBody): Uint8Array {
  if (!Array.isArray(body)) return body as Uint8Array;
  const pieces = body as readonly Uint8Array[];
  if (pieces.length === 1) return pieces[0]!;
  return copyPieces(pieces, Buffer.allocUnsafeSlow(sizeOf(pieces)));
}

/**
 * Joins request bodies for a thread that decodes one at a time, into a
 * buffer it keeps: a fresh buffer per request is memory the allocator faults
 * in and the garbage collector counts, request after request. A join is
 * valid until the next one; a body above `maxKeptBytes` gets a buffer of
 * its own, so what the joiner keeps stays bounded.
 */
export class BodyJoiner {
  private kept = Buffer.allocUnsafeSlow(0);

  constructor(private readonly maxKeptBytes: number) {}

  join(body: ExportBody): Uint8Array {
    if (!Array.isArray(body)) return body as Uint8Array;
    const pieces = body as readonly Uint8Array[];
    if (pieces.length === 1) return pieces[0]!;
    const bytes = sizeOf(pieces);
    if (bytes > this.maxKeptBytes) return copyPieces(pieces, Buffer.allocUnsafeSlow(bytes));
    if (this.kept.byteLength < bytes)
      this.kept = Buffer.allocUnsafeSlow(Math.min(this.maxKeptBytes, Math.max(bytes, 2 * this.kept.byteLength)));
    return copyPieces(pieces, this.kept.subarray(0, bytes));
  }
}

function sizeOf(pieces: readonly Uint8Array[]): number {
  let bytes = 0;
  for (const p of pieces) bytes += p.byteLength;
  return bytes;
}

function copyPieces(pieces: readonly Uint8Array[], into: Buffer): Buffer {
  let at = 0;
  for (const p of pieces) {
    into.set(p, at);
    at += p.byteLength;
  }
  return into;
}
