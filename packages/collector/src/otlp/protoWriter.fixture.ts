/**
 * Test fixture (not shipped API): a tiny protobuf writer for hand-crafting
 * wire bytes — unknown fields, odd encodings, malformed input.
 * Every helper returns plain byte arrays so messages compose with spread.
 */
export type Bytes = number[];

/** A varint; negative values are encoded as 64-bit two's complement (10 bytes), as for int64. */
export function varint(value: number | bigint): Bytes {
  let v = BigInt.asUintN(64, BigInt(value));
  const out: Bytes = [];
  while (v >= 0x80n) {
    out.push(Number(v & 0x7fn) | 0x80);
    v >>= 7n;
  }
  out.push(Number(v));
  return out;
}

export const tag = (field: number, wireType: number): Bytes => varint((field << 3) | wireType);

export const vint = (field: number, value: number | bigint): Bytes => [...tag(field, 0), ...varint(value)];

export function fixed64(field: number, value: bigint): Bytes {
  const out = tag(field, 1);
  for (let i = 0n; i < 8n; i++) out.push(Number((BigInt.asUintN(64, value) >> (8n * i)) & 0xffn));
  return out;
}

export function fixed32(field: number, value: number): Bytes {
  const v = value >>> 0;
  return [...tag(field, 5), v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, v >>> 24];
}

export function double(field: number, value: number): Bytes {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setFloat64(0, value, true);
  return [...tag(field, 1), ...b];
}

/** A length-delimited field: a nested message, bytes, or (given a string) UTF-8 text. */
export function len(field: number, payload: Bytes | Uint8Array | string): Bytes {
  const body = typeof payload === 'string' ? [...new TextEncoder().encode(payload)] : [...payload];
  return [...tag(field, 2), ...varint(body.length), ...body];
}

export const hexBytes = (hex: string): Bytes =>
  Array.from({ length: hex.length / 2 }, (_, i) => parseInt(hex.slice(2 * i, 2 * i + 2), 16));

export const toBuffer = (...parts: Bytes[]): Uint8Array => Uint8Array.from(parts.flat());
