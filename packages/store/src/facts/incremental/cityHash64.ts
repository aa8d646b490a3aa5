/**
 * ClickHouse's `cityHash64` (CityHash 1.0.2, the version ClickHouse keeps),
 * in BigInt arithmetic: slow (microseconds per call), so the incremental
 * finaliser only hashes the few keys a loop detection stores, and groups
 * spans by the strings themselves. Several arguments combine as ClickHouse
 * does: each further hash folds into the one so far by Hash128to64.
 */
const M = (1n << 64n) - 1n;
const K0 = 0xc3a5c85c97cb3127n;
const K1 = 0xb492b66fbe98f273n;
const K2 = 0x9ae16a3b2f90404fn;
const K3 = 0xc949d7c7509e6557n;
const KMUL = 0x9ddfea08eb382d69n;

const mul = (a: bigint, b: bigint): bigint => (a * b) & M;
const add = (...xs: bigint[]): bigint => xs.reduce((s, x) => s + x, 0n) & M;
const sub = (a: bigint, b: bigint): bigint => (a - b) & M;
const rotate = (v: bigint, shift: number): bigint =>
  shift === 0 ? v : ((v >> BigInt(shift)) | (v << BigInt(64 - shift))) & M;
const shiftMix = (v: bigint): bigint => v ^ (v >> 47n);

function fetch64(b: Uint8Array, i: number): bigint {
  let v = 0n;
  for (let k = 7; k >= 0; k--) v = (v << 8n) | BigInt(b[i + k] ?? 0);
  return v;
}
function fetch32(b: Uint8Array, i: number): bigint {
  let v = 0n;
  for (let k = 3; k >= 0; k--) v = (v << 8n) | BigInt(b[i + k] ?? 0);
  return v;
}

/** Hash128to64 of (low, high). */
function hash128to64(low: bigint, high: bigint): bigint {
  let a = mul(low ^ high, KMUL);
  a ^= a >> 47n;
  let b = mul(high ^ a, KMUL);
  b ^= b >> 47n;
  return mul(b, KMUL);
}

function hashLen0to16(s: Uint8Array): bigint {
  const len = s.length;
  const n = BigInt(len);
  if (len > 8) {
    const a = fetch64(s, 0);
    const b = fetch64(s, len - 8);
    return hash128to64(a, rotate(add(b, n), len)) ^ b;
  }
  if (len >= 4) {
    const a = fetch32(s, 0);
    return hash128to64(add(n, a << 3n), fetch32(s, len - 4));
  }
  if (len > 0) {
    const y = BigInt(s[0] ?? 0) + (BigInt(s[len >> 1] ?? 0) << 8n);
    const z = n + (BigInt(s[len - 1] ?? 0) << 2n);
    return mul(shiftMix(mul(y, K2) ^ mul(z, K3)), K2);
  }
  return K2;
}

function hashLen17to32(s: Uint8Array): bigint {
  const len = s.length;
  const a = mul(fetch64(s, 0), K1);
  const b = fetch64(s, 8);
  const c = mul(fetch64(s, len - 8), K2);
  const d = mul(fetch64(s, len - 16), K0);
  return hash128to64(
    add(rotate(sub(a, b), 43), rotate(c, 30), d),
    add(sub(add(a, rotate(b ^ K3, 20)), c), BigInt(len)),
  );
}

function weak(s: Uint8Array, i: number, a0: bigint, b0: bigint): [bigint, bigint] {
  const w = fetch64(s, i);
  const x = fetch64(s, i + 8);
  const y = fetch64(s, i + 16);
  const z = fetch64(s, i + 24);
  let a = add(a0, w);
  let b = rotate(add(b0, a, z), 21);
  const c = a;
  a = add(a, x, y);
  b = add(b, rotate(a, 44));
  return [add(a, z), add(b, c)];
}

function hashLen33to64(s: Uint8Array): bigint {
  const len = s.length;
  let z = fetch64(s, 24);
  let a = add(fetch64(s, 0), mul(add(BigInt(len), fetch64(s, len - 16)), K0));
  let b = rotate(add(a, z), 52);
  let c = rotate(a, 37);
  a = add(a, fetch64(s, 8));
  c = add(c, rotate(a, 7));
  a = add(a, fetch64(s, 16));
  const vf = add(a, z);
  const vs = add(b, rotate(a, 31), c);
  a = add(fetch64(s, 16), fetch64(s, len - 32));
  z = fetch64(s, len - 8);
  b = rotate(add(a, z), 52);
  c = rotate(a, 37);
  a = add(a, fetch64(s, len - 24));
  c = add(c, rotate(a, 7));
  a = add(a, fetch64(s, len - 16));
  const wf = add(a, z);
  const ws = add(b, rotate(a, 31), c);
  const r = shiftMix(add(mul(add(vf, ws), K2), mul(add(wf, vs), K0)));
  return mul(shiftMix(add(mul(r, K0), vs)), K2);
}

function cityHash64Bytes(s: Uint8Array): bigint {
  const total = s.length;
  if (total <= 16) return hashLen0to16(s);
  if (total <= 32) return hashLen17to32(s);
  if (total <= 64) return hashLen33to64(s);
  let x = fetch64(s, 0);
  let y = fetch64(s, total - 16) ^ K1;
  let z = fetch64(s, total - 56) ^ K0;
  let v = weak(s, total - 64, BigInt(total), y);
  let w = weak(s, total - 32, mul(BigInt(total), K1), K0);
  z = add(z, mul(shiftMix(v[1]), K1));
  x = mul(rotate(add(z, x), 39), K1);
  y = mul(rotate(y, 33), K1);
  let left = (total - 1) & ~63;
  let i = 0;
  do {
    x = mul(rotate(add(x, y, v[0], fetch64(s, i + 16)), 37), K1);
    y = mul(rotate(add(y, v[1], fetch64(s, i + 48)), 42), K1);
    x ^= w[1];
    y ^= v[0];
    z = rotate(z ^ w[0], 33);
    v = weak(s, i, mul(v[1], K1), add(x, w[0]));
    w = weak(s, i + 32, add(z, w[1]), y);
    [z, x] = [x, z];
    i += 64;
    left -= 64;
  } while (left !== 0);
  return hash128to64(add(hash128to64(v[0], w[0]), mul(shiftMix(y), K1), z), add(hash128to64(v[1], w[1]), x));
}

/** `cityHash64(a, …)` of strings (UTF-8), as ClickHouse computes it. */
export function cityHash64(...args: string[]): bigint {
  let h: bigint | undefined;
  for (const a of args) {
    const v = cityHash64Bytes(Buffer.from(a, 'utf8'));
    h = h === undefined ? v : hash128to64(h, v);
  }
  return h ?? 0n;
}
