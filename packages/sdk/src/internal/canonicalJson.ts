/**
 * Canonical JSON text of any value, the input of `stableHash`.
 *
 * - JSON values encode as `JSON.stringify` would, with object keys sorted
 *   (by UTF-16 code units) at every level; `-0` encodes as `0`.
 * - `undefined`, functions and symbols behave as in JSON: omitted from
 *   objects, `null` in arrays. A top-level one encodes as `undefined`.
 * - `toJSON()` is honoured (so a Date is its ISO string, an invalid Date `null`).
 * - Values JSON cannot carry become tagged objects: `{"$bigint":"12"}`,
 *   `{"$number":"NaN"}`, `{"$map":[[k,v],…]}` and `{"$set":[…]}` (entries
 *   sorted by their canonical text, so insertion order does not matter),
 *   `{"$bytes":"<hex>"}` for typed arrays, Buffers and ArrayBuffers,
 *   `{"$regexp":"/a/g"}`, `{"$error":{"name":…,"message":…}}`.
 * - A reference back to an ancestor encodes as `{"$cycle":n}` (n levels up),
 *   so cyclic values are safe; shared non-cyclic references encode in full.
 *
 * It runs on every `tool()` call (the argument hash), so it builds the text
 * by concatenation, with a direct path for plain objects and arrays.
 */
export function canonicalJson(value: unknown): string {
  return encode(value, []) ?? 'undefined';
}

function encode(value: unknown, ancestors: object[]): string | undefined {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      // String() of a finite number is JSON's text, and String(-0) is '0'
      return Number.isFinite(value) ? String(value) : `{"$number":"${String(value)}"}`;
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      return `{"$bigint":"${value.toString()}"}`;
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
    case 'object':
      return value === null ? 'null' : encodeObject(value, ancestors);
  }
}

function encodeObject(value: object, ancestors: object[]): string | undefined {
  const at = ancestors.indexOf(value);
  if (at !== -1) return `{"$cycle":${ancestors.length - at}}`;
  const proto: unknown = Object.getPrototypeOf(value);
  // a plain object or an array is none of the special cases below except `toJSON`
  const array = proto === Array.prototype && Array.isArray(value);
  if (array || proto === Object.prototype || proto === null) {
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') return encode(toJSON.call(value) as unknown, ancestors);
    return array ? encodeArray(value as unknown[], ancestors) : encodeRecord(value, ancestors);
  }
  if (value instanceof ArrayBuffer) return `{"$bytes":"${Buffer.from(value).toString('hex')}"}`;
  if (ArrayBuffer.isView(value)) {
    return `{"$bytes":"${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex')}"}`;
  }
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function') return encode(toJSON.call(value) as unknown, ancestors);
  if (value instanceof RegExp) return `{"$regexp":${JSON.stringify(value.toString())}}`;
  if (Array.isArray(value)) return encodeArray(value as unknown[], ancestors);

  ancestors.push(value);
  try {
    if (value instanceof Map) {
      const entries = [...value.entries()].map(
        ([k, v]: [unknown, unknown]) => `[${encode(k, ancestors) ?? 'null'},${encode(v, ancestors) ?? 'null'}]`,
      );
      return `{"$map":[${entries.sort().join(',')}]}`;
    }
    if (value instanceof Set) {
      const items = [...value.values()].map((item: unknown) => encode(item, ancestors) ?? 'null');
      return `{"$set":[${items.sort().join(',')}]}`;
    }
    if (value instanceof Error) {
      return `{"$error":{"message":${JSON.stringify(value.message)},"name":${JSON.stringify(value.name)}}}`;
    }
  } finally {
    ancestors.pop();
  }
  return encodeRecord(value, ancestors);
}

function encodeArray(value: unknown[], ancestors: object[]): string {
  ancestors.push(value);
  try {
    let out = '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ',';
      // a hole stays empty, as `map` + `join` always encoded it
      if (i in value) out += encode(value[i], ancestors) ?? 'null';
    }
    return `${out}]`;
  } finally {
    ancestors.pop();
  }
}

function encodeRecord(value: object, ancestors: object[]): string {
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  // the default sort compares UTF-16 code units, as the canonical order requires
  if (keys.length > 1) keys.sort();
  ancestors.push(value);
  try {
    let out = '{';
    let first = true;
    for (const key of keys) {
      const encoded = encode(record[key], ancestors);
      if (encoded === undefined) continue;
      out += `${first ? '' : ','}${JSON.stringify(key)}:${encoded}`;
      first = false;
    }
    return `${out}}`;
  } finally {
    ancestors.pop();
  }
}
