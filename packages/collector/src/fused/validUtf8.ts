import { isUtf8 } from 'node:buffer';

/** Strings shorter than this are checked for ASCII by a loop before the native UTF-8 check. */
const LOOP_CHECK = 64;

/** Whether bytes [start, start + len) are valid UTF-8 (so copying them equals decoding and encoding them). */
export function validUtf8(buf: Uint8Array, start: number, len: number): boolean {
  if (len < LOOP_CHECK) {
    let i = 0;
    while (i < len && buf[start + i]! < 0x80) i++;
    if (i === len) return true;
  }
  return isUtf8(buf.subarray(start, start + len));
}
