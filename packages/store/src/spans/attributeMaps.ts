import { encodeAttributeValue, toJsonValue, type AttributeValue, type JsonValue } from '../attributeValue.js';

export type KeyValues = ReadonlyArray<{ key: string; value: AttributeValue }>;

/**
 * An attributes list as a map of texts (last duplicate key wins, in the
 * position of its first occurrence, as in a JS object), filling `types` with
 * the type tag of each non-string value.
 */
export function toTextMap(kvs: KeyValues, types?: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { key, value } of kvs) {
    const { text, type } = encodeAttributeValue(value);
    out[key] = text;
    if (types !== undefined) {
      if (type === undefined) delete types[key];
      else types[key] = type;
    }
  }
  return out;
}

/** Attributes of events and links as one JSON object (last duplicate key wins, as in maps). */
export function toJsonObjectText(kvs: KeyValues): string {
  if (kvs.length === 0) return '{}';
  const out: Record<string, JsonValue> = {};
  for (const { key, value } of kvs) out[key] = toJsonValue(value);
  return JSON.stringify(out);
}
