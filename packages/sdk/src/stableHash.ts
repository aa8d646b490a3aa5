import { hash } from 'node:crypto';
import { canonicalJson } from './internal/canonicalJson.js';

/**
 * A short, deterministic hash of any value: SHA-256 of its canonical JSON
 * (object keys sorted at every level; Dates, bigints, Maps, Sets, typed arrays
 * and cycles handled — see the package README), as the first 16 hex chars.
 * Equal across processes and machines for structurally equal values, so it
 * identifies "the same tool with the same arguments" across a run.
 *
 * Throws only if reading the value throws (a throwing getter or `toJSON`);
 * the step wrappers catch that and omit the attribute.
 */
export function stableHash(value: unknown): string {
  return hash('sha256', canonicalJson(value), 'hex').slice(0, 16);
}
