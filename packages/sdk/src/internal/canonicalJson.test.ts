import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonicalJson.js';

/**
 * The first, straightforward encoder (arrays via map + join, objects via a
 * sorted field list): the faster one must produce the very same text, since
 * the text is what `telltale.tool.args_hash` hashes.
 */
function reference(value: unknown): string {
  return ref(value, []) ?? 'undefined';
}

function ref(value: unknown, ancestors: object[]): string | undefined {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      if (Number.isFinite(value)) return Object.is(value, -0) ? '0' : JSON.stringify(value);
      return `{"$number":"${String(value)}"}`;
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      return `{"$bigint":"${value.toString()}"}`;
    case 'object':
      return value === null ? 'null' : refObject(value, ancestors);
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
  }
}

function refObject(value: object, ancestors: object[]): string | undefined {
  const at = ancestors.indexOf(value);
  if (at !== -1) return `{"$cycle":${ancestors.length - at}}`;
  if (value instanceof ArrayBuffer) return `{"$bytes":"${Buffer.from(value).toString('hex')}"}`;
  if (ArrayBuffer.isView(value)) {
    return `{"$bytes":"${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex')}"}`;
  }
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function') return ref(toJSON.call(value) as unknown, ancestors);
  if (value instanceof RegExp) return `{"$regexp":${JSON.stringify(value.toString())}}`;
  ancestors.push(value);
  try {
    if (Array.isArray(value)) return `[${value.map((item: unknown) => ref(item, ancestors) ?? 'null').join(',')}]`;
    if (value instanceof Map) {
      const entries = [...value.entries()].map(
        ([k, v]: [unknown, unknown]) => `[${ref(k, ancestors) ?? 'null'},${ref(v, ancestors) ?? 'null'}]`,
      );
      return `{"$map":[${entries.sort().join(',')}]}`;
    }
    if (value instanceof Set) {
      return `{"$set":[${[...value.values()]
        .map((item: unknown) => ref(item, ancestors) ?? 'null')
        .sort()
        .join(',')}]}`;
    }
    if (value instanceof Error) {
      return `{"$error":{"message":${JSON.stringify(value.message)},"name":${JSON.stringify(value.name)}}}`;
    }
    const record = value as Record<string, unknown>;
    const fields: string[] = [];
    for (const key of Object.keys(record).sort()) {
      const encoded = ref(record[key], ancestors);
      if (encoded !== undefined) fields.push(`${JSON.stringify(key)}:${encoded}`);
    }
    return `{${fields.join(',')}}`;
  } finally {
    ancestors.pop();
  }
}

/** Deterministic pseudo-random values of every kind the encoder distinguishes. */
function generator(seed: number) {
  let s = seed >>> 0;
  const rnd = () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const strings = [
    '',
    'a',
    'ORD-1001',
    'quote " back \\ slash',
    'tab\tnl\n\u0001',
    'é ü 日本',
    '\ud800 lone',
    '😀',
    'b',
    'B',
    '_',
    '10',
    '2',
  ];
  const numbers = [0, -0, 1, -1, 1.5, 1e21, 1e-7, 2 ** 53, Number.NaN, Infinity, -Infinity, 0.1 + 0.2];
  class Point {
    constructor(
      readonly x: number,
      readonly y: number,
    ) {}
  }
  const value = (depth: number, parents: object[]): unknown => {
    const leaf = depth <= 0 || rnd() < 0.35;
    if (leaf) {
      return pick<() => unknown>([
        () => pick(strings),
        () => pick(numbers),
        () => rnd() < 0.5,
        () => null,
        () => undefined,
        () => () => 1,
        () => Symbol('s'),
        () => BigInt(Math.floor(rnd() * 1e6)) * 10n ** 15n,
        () => new Date(Date.UTC(2026, 0, 1 + Math.floor(rnd() * 300))),
        () => new Date(Number.NaN),
        () => Buffer.from(pick(strings)),
        () => new Uint16Array([1, 2, 3]).subarray(1),
        () => new ArrayBuffer(3),
        () => /a+b/gi,
        () => new RangeError(pick(strings)),
        () => (parents.length > 0 ? pick(parents) : 1),
      ])();
    }
    const n = Math.floor(rnd() * 5);
    const kind = pick(['object', 'array', 'sparse', 'nullproto', 'map', 'set', 'class', 'toJSON', 'subarray']);
    if (kind === 'array' || kind === 'sparse' || kind === 'subarray') {
      const arr: unknown[] = kind === 'subarray' ? new (class extends Array<unknown> {})() : [];
      parents.push(arr);
      for (let i = 0; i < n; i++) arr.push(value(depth - 1, parents));
      if (kind === 'sparse') arr[n + 2] = value(depth - 1, parents);
      parents.pop();
      return arr;
    }
    if (kind === 'map' || kind === 'set') {
      const m = new Map<unknown, unknown>();
      for (let i = 0; i < n; i++) m.set(pick(strings) + String(i), value(depth - 1, parents));
      return kind === 'map' ? m : new Set(m.values());
    }
    if (kind === 'class') return new Point(pick(numbers), pick(numbers));
    const obj: Record<string, unknown> = kind === 'nullproto' ? (Object.create(null) as Record<string, unknown>) : {};
    parents.push(obj);
    for (let i = 0; i < n; i++) obj[pick(strings) + pick(['', 'x', '1'])] = value(depth - 1, parents);
    if (kind === 'toJSON') {
      const wrapped = pick(strings);
      obj.toJSON = () => ({ wrapped });
    }
    parents.pop();
    return obj;
  };
  return () => value(4, []);
}

describe('canonicalJson', () => {
  it('encodes 5,000 generated values exactly as the reference encoder', () => {
    const next = generator(20261126);
    let kinds = 0;
    for (let i = 0; i < 5000; i++) {
      const v = next();
      const text = canonicalJson(v);
      expect(text).toBe(reference(v));
      if (text.includes('$cycle') || text.includes('[,')) kinds++;
    }
    // the generator reaches the rare shapes (cycles, holes), so they are compared too
    expect(kinds).toBeGreaterThan(50);
  });

  it('keeps holes of sparse arrays empty and encodes -0 as 0', () => {
    expect(canonicalJson([1, , 2])).toBe('[1,,2]');
    expect(canonicalJson({ z: -0, a: [undefined] })).toBe('{"a":[null],"z":0}');
  });
});
