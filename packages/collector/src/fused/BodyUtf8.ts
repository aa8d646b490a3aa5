import { isAscii } from 'node:buffer';
import type { VerbatimMessages } from '@telltale/store/encode';
import type { Utf8Text } from '../normalise/extractContent.js';
import type { ProtoReader } from '../otlp/protoReader.js';

/**
 * A string of the request body as its bytes (valid UTF-8): its length is
 * told from them, it is decoded only when read as a string, and a verbatim
 * message list of it is written as the bytes themselves.
 */
export class BodyUtf8 implements Utf8Text {
  private text: string | undefined;

  constructor(
    private readonly r: ProtoReader,
    private readonly start: number,
    private readonly len: number,
  ) {}

  lengthAtLeast(n: number): boolean {
    // a UTF-16 unit takes 1 to 3 bytes (a pair, 4)
    if (this.len < n) return false;
    if (this.len >= 3 * n) return true;
    const buf = this.r.buf;
    if (isAscii(buf.subarray(this.start, this.start + this.len))) return true;
    let units = 0;
    for (let i = this.start, end = this.start + this.len; i < end; i++) {
      const b = buf[i]!;
      if ((b & 0xc0) !== 0x80) units += b >= 0xf0 ? 2 : 1;
    }
    return units >= n;
  }

  /** The bytes themselves (a view of the body). */
  bytes(): Uint8Array {
    return this.r.buf.subarray(this.start, this.start + this.len);
  }

  string(): string {
    return (this.text ??= this.r.stringAt(this.start, this.len));
  }

  verbatim(shape: VerbatimMessages['shape']): VerbatimMessages {
    return new VerbatimUtf8(shape, this);
  }
}

/** A verbatim message list written as the body's bytes, decoded only if it is read (or cut) as a string. */
class VerbatimUtf8 implements VerbatimMessages {
  readonly utf8: Uint8Array;

  constructor(
    readonly shape: VerbatimMessages['shape'],
    private readonly text: BodyUtf8,
  ) {
    this.utf8 = text.bytes();
  }

  get json(): string {
    return this.text.string();
  }
}
