import { describe, expect, it } from 'vitest';
import {
  bearerToken,
  generateApiKey,
  hashSecret,
  parseApiKey,
  randomBase62,
  secretMatches,
  KEY_ID_LENGTH,
  SECRET_LENGTH,
} from './apiKey.js';

describe('API key format', () => {
  it('generates tt_<kind>_<keyId>_<secret> with a 256-bit base62 secret, and parses it back', () => {
    const ingest = generateApiKey('ingest');
    expect(ingest.key).toMatch(/^tt_ingest_[0-9A-Za-z]{16}_[0-9A-Za-z]{43}$/);
    expect(SECRET_LENGTH * Math.log2(62)).toBeGreaterThanOrEqual(256);
    expect(parseApiKey(ingest.key)).toEqual({ kind: 'ingest', keyId: ingest.keyId, secret: ingest.secret });
    const read = generateApiKey('read');
    expect(read.key.startsWith(`tt_read_${read.keyId}_`)).toBe(true);
    expect(read.keyId).toHaveLength(KEY_ID_LENGTH);
    expect(read.keyId).not.toBe(ingest.keyId);
    expect(read.secret).not.toBe(ingest.secret);
  });

  it('stores the SHA-256 of the secret, never the key', () => {
    const { key, secret, secretSha256 } = generateApiKey('read');
    expect(secretSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(secretSha256).toBe(hashSecret(secret));
    // the known SHA-256 test vector
    expect(hashSecret('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(secretSha256).not.toContain(secret);
    expect(key).not.toContain(secretSha256);
    const stored = Buffer.from(secretSha256, 'hex');
    expect(secretMatches(secret, stored)).toBe(true);
    expect(secretMatches(`${secret.slice(0, -1)}${secret.endsWith('a') ? 'b' : 'a'}`, stored)).toBe(false);
    expect(secretMatches(secret, Buffer.alloc(3))).toBe(false);
  });

  it('rejects anything that is not exactly a key', () => {
    const { key, keyId, secret } = generateApiKey('ingest');
    for (const text of [
      '',
      'tt_ingest',
      `tt_admin_${keyId}_${secret}`,
      `tt_ingest_${keyId}_${secret}x`,
      `tt_ingest_${keyId.slice(1)}_${secret}`,
      ` ${key}`,
      `${key}\n`,
      key.replace('_', '-'),
      `tt_ingest_${keyId}_${secret.slice(0, -1)}-`,
    ]) {
      expect(parseApiKey(text), JSON.stringify(text)).toBeUndefined();
    }
  });

  it('draws every base62 character, roughly uniformly', () => {
    const counts = new Map<string, number>();
    for (const ch of randomBase62(62_000)) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    expect(counts.size).toBe(62);
    for (const n of counts.values()) expect(n).toBeGreaterThan(800); // expected 1000 each
  });

  it('reads the bearer token of an Authorization header', () => {
    expect(bearerToken('Bearer tt_read_x')).toBe('tt_read_x');
    expect(bearerToken('bearer   tt_read_x ')).toBe('tt_read_x');
    expect(bearerToken('Basic dXNlcjpwYXNz')).toBeUndefined();
    expect(bearerToken('Bearer')).toBeUndefined();
    expect(bearerToken('Bearer a b')).toBeUndefined();
    expect(bearerToken(undefined)).toBeUndefined();
  });
});
