import { isContentAttribute } from '@telltale/semconv';
import { fieldSourcesOf } from '../normalise/attributeLookup.js';
import type { ProtoReader } from '../otlp/protoReader.js';
import { validUtf8 } from './validUtf8.js';

/**
 * What an attribute name means to the fused decoder, worked out once per
 * distinct name: its text, the canonical fields it feeds, whether it is
 * content, and how its map entries are written and checked.
 */
export interface KeyInfo {
  key: string;
  codes: readonly number[] | undefined;
  content: boolean;
  /** Its bytes are valid UTF-8, so the map key is written by copying them (else its text is encoded). */
  utf8: boolean;
  /** A hash of its text (not its bytes: two invalid byte strings can decode to one text), for KeyOrderCheck. */
  hash: number;
  /** Keeps its place in a JS object: no leading digit (array-index keys move first), not `__proto__`. */
  ordered: boolean;
  /** Its bytes (empty for a name given as text), and as little-endian 32-bit words for a quick compare. */
  bytes: Uint8Array;
  words: Uint32Array;
  /** The names that followed it in the last spans that had it, latest first: what the next attribute likely is. */
  next: KeyInfo | undefined;
  next2: KeyInfo | undefined;
}

const NO_BYTES = new Uint8Array(0);

/** A copy of bytes [start, start + len) in an ArrayBuffer of its own (so its words are aligned). */
function copyOf(buf: Uint8Array, start: number, len: number): Uint8Array {
  const copy = new Uint8Array(len);
  copy.set(buf.subarray(start, start + len));
  return copy;
}

/** A KeyInfo for a name given as text (and as bytes, when given). */
export function keyInfoOf(key: string, utf8: boolean, bytes: Uint8Array = NO_BYTES): KeyInfo {
  let hash = 0x811c9dc5 ^ key.length;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  const c = key.length === 0 ? 0 : key.charCodeAt(0);
  return {
    key,
    codes: fieldSourcesOf(key),
    content: isContentAttribute(key),
    utf8,
    hash: hash ^ (hash >>> 15),
    ordered: !(c >= 48 && c <= 57) && key !== '__proto__',
    bytes,
    words: new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.length >> 2),
    next: undefined,
    next2: undefined,
  };
}

/** Whether bytes [start, start + len) of `buf` (`view` over it) are `info`'s name. */
export function isKeyAt(info: KeyInfo, buf: Uint8Array, view: DataView, start: number, len: number): boolean {
  const bytes = info.bytes;
  if (bytes.length !== len) return false;
  const words = info.words;
  const n = words.length;
  for (let k = 0; k < n; k++) if (view.getUint32(start + 4 * k, true) !== words[k]) return false;
  for (let k = 4 * n; k < len; k++) if (buf[start + k] !== bytes[k]) return false;
  return true;
}

/** Names up to this many bytes are kept in the table. */
const MAX_KEY_BYTES = 128;
const SLOTS = 8192;
/** Entries kept before the table starts afresh (half the slots: short probes). */
const MAX_ENTRIES = SLOTS >> 1;

/**
 * Attribute names by their bytes in the request body: a hash of the bytes
 * finds the name's KeyInfo without decoding it or looking its text up
 * (open addressing, linear probing; the bytes are compared in full). A
 * name is decoded and worked out once, when first seen; the table starts
 * afresh past MAX_ENTRIES names, and longer names are worked out each time.
 * One per thread (module state).
 */
class KeyTable {
  private readonly hashes = new Int32Array(SLOTS);
  private readonly lengths = new Int32Array(SLOTS).fill(-1);
  private readonly starts = new Int32Array(SLOTS);
  private bytes = new Uint8Array(MAX_ENTRIES * 32);
  private end = 0;
  private readonly infos: (KeyInfo | undefined)[] = new Array<KeyInfo | undefined>(SLOTS).fill(undefined);
  private count = 0;

  get(r: ProtoReader, start: number, len: number): KeyInfo {
    const buf = r.buf;
    if (len > MAX_KEY_BYTES)
      return keyInfoOf(r.stringAt(start, len), validUtf8(buf, start, len), copyOf(buf, start, len));
    // FNV-1a over the length and at most the first and last 8 bytes: bounded work; the full compare decides
    let h = Math.imul(0x811c9dc5 ^ len, 0x01000193);
    const end = start + len;
    const head = Math.min(end, start + 8);
    for (let i = start; i < head; i++) h = Math.imul(h ^ buf[i]!, 0x01000193);
    for (let i = Math.max(head, end - 8); i < end; i++) h = Math.imul(h ^ buf[i]!, 0x01000193);
    let slot = (h ^ (h >>> 15)) & (SLOTS - 1);
    const bytes = this.bytes;
    for (;;) {
      const l = this.lengths[slot]!;
      if (l < 0) break;
      if (l === len && this.hashes[slot] === h) {
        const base = this.starts[slot]! - start;
        let i = start;
        while (i < end && bytes[base + i] === buf[i]) i++;
        if (i === end) return this.infos[slot]!;
      }
      slot = (slot + 1) & (SLOTS - 1);
    }
    const info = keyInfoOf(r.stringAt(start, len), validUtf8(buf, start, len), copyOf(buf, start, len));
    if (this.count >= MAX_ENTRIES) {
      this.clear();
      slot = (h ^ (h >>> 15)) & (SLOTS - 1);
    }
    if (this.end + len > this.bytes.length) {
      const next = new Uint8Array(Math.max(2 * this.bytes.length, this.end + len));
      next.set(this.bytes.subarray(0, this.end));
      this.bytes = next;
    }
    this.bytes.set(buf.subarray(start, end), this.end);
    this.starts[slot] = this.end;
    this.end += len;
    this.lengths[slot] = len;
    this.hashes[slot] = h;
    this.infos[slot] = info;
    this.count++;
    return info;
  }

  private clear(): void {
    this.lengths.fill(-1);
    this.infos.fill(undefined);
    this.count = 0;
    this.end = 0;
  }
}

const table = new KeyTable();

/** The KeyInfo of the attribute name at bytes [start, start + len) of the reader's buffer. */
export function keyInfoAt(r: ProtoReader, start: number, len: number): KeyInfo {
  return table.get(r, start, len);
}
