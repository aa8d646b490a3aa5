import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { ApiKeyKind } from '@telltale/semconv';

/**
 * API keys look like `tt_ingest_<keyId>_<secret>` (or `tt_read_…`): a public
 * key id (16 base62 characters, ~95 bits, for lookup and revocation) and a
 * secret of 43 base62 characters (256 bits). The store keeps only the
 * SHA-256 of the secret: a long random secret needs no slow hash.
 */
export const KEY_ID_LENGTH = 16;
export const SECRET_LENGTH = 43;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const KEY_PATTERN = new RegExp(`^tt_(ingest|read)_([0-9A-Za-z]{${KEY_ID_LENGTH}})_([0-9A-Za-z]{${SECRET_LENGTH}})$`);

export interface ParsedApiKey {
  kind: ApiKeyKind;
  keyId: string;
  secret: string;
}

export interface GeneratedApiKey extends ParsedApiKey {
  /** The whole key, shown once. */
  key: string;
  /** What the store keeps. */
  secretSha256: string;
}

/** Uniform base62 characters from the CSPRNG (bytes ≥ 248 are dropped, so no character is likelier). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Constant-time comparison of a presented secret with a stored SHA-256. */
export function secretMatches(secret: string, secretSha256: Buffer): boolean {
  const presented = createHash('sha256').update(secret, 'utf8').digest();
  return presented.length === secretSha256.length && timingSafeEqual(presented, secretSha256);
}

export function generateApiKey(kind: ApiKeyKind): GeneratedApiKey {
  const keyId = randomBase62(KEY_ID_LENGTH);
  const secret = randomBase62(SECRET_LENGTH);
  return { kind, keyId, secret, key: `tt_${kind}_${keyId}_${secret}`, secretSha256: hashSecret(secret) };
}

/** The parts of a well-formed key, or undefined. */
export function parseApiKey(text: string): ParsedApiKey | undefined {
  const match = KEY_PATTERN.exec(text);
  if (match === null) return undefined;
  return { kind: match[1] as ApiKeyKind, keyId: match[2]!, secret: match[3]! };
}

/** The token of an `Authorization: Bearer <token>` header (scheme case-insensitive), or undefined. */
export function bearerToken(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const match = /^\s*bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}
