import { FIELD_SOURCES, type CanonicalField } from '@telltale/semconv';
import type { AnyValue, KeyValue } from '../otlp/types.js';

/** Last-wins view of a span's attributes, as OTLP maps are meant to be read. */
export type AttributeMap = ReadonlyMap<string, AnyValue>;

export function toAttributeMap(kvs: readonly KeyValue[]): AttributeMap {
  const map = new Map<string, AnyValue>();
  for (const kv of kvs) map.set(kv.key, kv.value);
  return map;
}

function firstPresent(attrs: AttributeMap, field: CanonicalField): AnyValue | undefined {
  for (const key of FIELD_SOURCES[field]) {
    const value = attrs.get(key);
    if (value !== undefined && value !== null && value !== '') return value;
  }
  return undefined;
}

export function readString(attrs: AttributeMap, field: CanonicalField): string {
  const value = firstPresent(attrs, field);
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'bigint' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  return '';
}

/** A non-negative count; strings holding integers are accepted (some SDKs send them). */
export function readCount(attrs: AttributeMap, field: CanonicalField): number {
  const value = firstPresent(attrs, field);
  const n = typeof value === 'bigint' ? Number(value) : typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : NaN;
  return Number.isFinite(n) && n >= 0 ? Math.trunc(n) : 0;
}

export function readNumber(attrs: AttributeMap, field: CanonicalField): number | null {
  const value = firstPresent(attrs, field);
  const n = typeof value === 'bigint' ? Number(value) : typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : NaN;
  return Number.isFinite(n) ? n : null;
}

export function readBool(attrs: AttributeMap, field: CanonicalField): boolean {
  const value = firstPresent(attrs, field);
  return value === true || value === 'true';
}
