import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from './internal/canonicalJson.js';
import { stableHash } from './stableHash.js';

describe('stableHash', () => {
  it('is 16 hex chars of SHA-256 over canonical JSON, equal across processes', () => {
    const expected = createHash('sha256').update('{"a":[1,2],"b":"x"}').digest('hex').slice(0, 16);
    expect(stableHash({ b: 'x', a: [1, 2] })).toBe(expected);
    // Literal value (= sha256sum of the canonical text): no process-dependent input.
    expect(stableHash({ query: 'weather in Paris', limit: 5 })).toBe('7bbac2125ca36927');
  });

  it('ignores object key order at every level', () => {
    const a = { q: 'paris', opts: { limit: 5, lang: 'en', filters: [{ x: 1, y: 2 }] } };
    const b = { opts: { filters: [{ y: 2, x: 1 }], lang: 'en', limit: 5 }, q: 'paris' };
    expect(stableHash(a)).toBe(stableHash(b));
  });

  it('differs for different values, array orders and types', () => {
    expect(stableHash({ q: 'paris' })).not.toBe(stableHash({ q: 'london' }));
    expect(stableHash([1, 2])).not.toBe(stableHash([2, 1]));
    expect(stableHash(1)).not.toBe(stableHash('1'));
    expect(stableHash(1n)).not.toBe(stableHash(1));
    expect(stableHash(null)).not.toBe(stableHash(undefined));
  });

  it('follows JSON for undefined, functions and -0', () => {
    expect(canonicalJson({ a: 1, b: undefined, f: () => 1 })).toBe('{"a":1}');
    expect(canonicalJson([undefined, 1])).toBe('[null,1]');
    expect(canonicalJson(undefined)).toBe('undefined');
    expect(canonicalJson(-0)).toBe('0');
  });

  it('encodes dates, bigints, non-finite numbers, maps, sets and bytes stably', () => {
    expect(canonicalJson(new Date(Date.UTC(2026, 0, 2)))).toBe('"2026-01-02T00:00:00.000Z"');
    expect(canonicalJson(10n ** 20n)).toBe('{"$bigint":"100000000000000000000"}');
    expect(canonicalJson(Number.NaN)).toBe('{"$number":"NaN"}');
    expect(
      canonicalJson(
        new Map([
          ['b', 2],
          ['a', 1],
        ]),
      ),
    ).toBe(
      canonicalJson(
        new Map([
          ['a', 1],
          ['b', 2],
        ]),
      ),
    );
    expect(canonicalJson(new Set([3, 1]))).toBe('{"$set":[1,3]}');
    expect(canonicalJson(Buffer.from('hi'))).toBe('{"$bytes":"6869"}');
    expect(canonicalJson(new Uint8Array([0x68, 0x69]))).toBe('{"$bytes":"6869"}');
  });

  it('survives cycles and keeps shared references in full', () => {
    const node: Record<string, unknown> = { name: 'n' };
    node.self = node;
    expect(canonicalJson(node)).toBe('{"name":"n","self":{"$cycle":1}}');
    const shared = { x: 1 };
    expect(canonicalJson({ a: shared, b: shared })).toBe('{"a":{"x":1},"b":{"x":1}}');
  });
});
