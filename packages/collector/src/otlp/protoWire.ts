/*
 * Protobuf wire-format constants and pure helpers shared by the reader and decoders.
 */

/** Protobuf wire types: the low 3 bits of every tag. */
export const WireType = {
  VARINT: 0,
  I64: 1,
  LEN: 2,
  SGROUP: 3,
  EGROUP: 4,
  I32: 5,
} as const;

/** The tag (field number << 3 | wire type) a well-formed field starts with. */
export function fieldTag(field: number, wireType: number): number {
  return (field << 3) | wireType;
}

/** A bitmask with bit n set for each known field number n (all < 32 here). */
export function knownFields(...fields: number[]): number {
  return fields.reduce((mask, f) => mask | (1 << f), 0);
}

// Lowercase hex digits as char codes, two per byte value.
const HEX_DIGITS = '0123456789abcdef';
export const HEX_CODES = new Uint16Array(512);
for (let i = 0; i < 256; i++) {
  HEX_CODES[2 * i] = HEX_DIGITS.charCodeAt(i >> 4);
  HEX_CODES[2 * i + 1] = HEX_DIGITS.charCodeAt(i & 15);
}

const TWO_POW_32 = 4294967296;

/** Two's complement int64 from unsigned 32-bit halves, avoiding BigInt arithmetic when a double is exact. */
export function int64FromHalves(lo: number, hi: number): bigint {
  if (hi < 0x200000) return BigInt(hi * TWO_POW_32 + lo); // 0 <= v < 2^53
  if (hi >= 0xffe00000) return BigInt((hi - TWO_POW_32) * TWO_POW_32 + lo); // -2^53 <= v < 0
  return BigInt.asIntN(64, (BigInt(hi) << 32n) | BigInt(lo));
}
