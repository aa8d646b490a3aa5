/**
 * Attribute values are stored as text in a `Map(String, String)` so that any
 * attribute can be filtered with plain SQL; the type of each non-string value
 * sits beside it in `attribute_types`, so reads give back what was written.
 */

/** An attribute value as OTLP carries it (int64 as bigint, bytes as Uint8Array). */
export type AttributeValue =
  | string
  | boolean
  | bigint
  | number
  | Uint8Array
  | AttributeValue[]
  | { kvlist: { key: string; value: AttributeValue }[] }
  | null;

/** A value as the API returns it: JSON-safe, int64 beyond 2^53 as a decimal string. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** Type tags kept in `attribute_types`; strings have no tag. */
export const ATTRIBUTE_TYPE = {
  bool: 'bool',
  int: 'int',
  double: 'double',
  bytes: 'bytes',
  array: 'array',
  kvlist: 'kvlist',
  empty: 'empty',
} as const;
export type AttributeType = (typeof ATTRIBUTE_TYPE)[keyof typeof ATTRIBUTE_TYPE];

/** The JSON form of a value (used for arrays, kvlists, events, links and the API). */
export function toJsonValue(value: AttributeValue): JsonValue {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'bigint') {
    return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER)
      ? Number(value)
      : value.toString();
  }
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  if (Array.isArray(value)) return value.map(toJsonValue);
  const out: { [key: string]: JsonValue } = {};
  for (const kv of value.kvlist) out[kv.key] = toJsonValue(kv.value);
  return out;
}

/** The text a value is stored as in an attributes map. */
export function attributeText(value: AttributeValue): string {
  if (typeof value === 'string') return value;
  if (value === null) return '';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') return String(value);
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  return JSON.stringify(toJsonValue(value));
}

/** The type tag stored beside a value in `attribute_types`; undefined for strings. */
export function attributeType(value: AttributeValue): AttributeType | undefined {
  if (typeof value === 'string') return undefined;
  if (value === null) return ATTRIBUTE_TYPE.empty;
  if (typeof value === 'boolean') return ATTRIBUTE_TYPE.bool;
  if (typeof value === 'bigint') return ATTRIBUTE_TYPE.int;
  if (typeof value === 'number') return ATTRIBUTE_TYPE.double;
  if (value instanceof Uint8Array) return ATTRIBUTE_TYPE.bytes;
  return Array.isArray(value) ? ATTRIBUTE_TYPE.array : ATTRIBUTE_TYPE.kvlist;
}

/** Encodes a value for the attributes map: its text and, unless a string, its type tag. */
export function encodeAttributeValue(value: AttributeValue): { text: string; type: AttributeType | undefined } {
  return { text: attributeText(value), type: attributeType(value) };
}

/** Reverses {@link encodeAttributeValue} into the API's JSON form. */
export function decodeAttributeValue(text: string, type: string | undefined): JsonValue {
  switch (type) {
    case undefined:
    case '':
      return text;
    case ATTRIBUTE_TYPE.empty:
      return null;
    case ATTRIBUTE_TYPE.bool:
      return text === 'true';
    case ATTRIBUTE_TYPE.int: {
      const n = Number(text);
      return Number.isSafeInteger(n) ? n : text;
    }
    case ATTRIBUTE_TYPE.double: {
      const n = Number(text);
      return Number.isFinite(n) ? n : text;
    }
    case ATTRIBUTE_TYPE.array:
    case ATTRIBUTE_TYPE.kvlist:
      return JSON.parse(text) as JsonValue;
    default:
      // bytes (base64) and tags written by a newer version read as their text.
      return text;
  }
}

/** Decodes a whole attributes map. */
export function decodeAttributes(
  texts: Record<string, string>,
  types: Record<string, string>,
): Record<string, JsonValue> {
  const out: Record<string, JsonValue> = {};
  for (const [key, text] of Object.entries(texts)) out[key] = decodeAttributeValue(text, types[key]);
  return out;
}
