import { Buffer } from 'node:buffer';
import { OtlpDecodeError } from './OtlpDecodeError.js';
import { MAX_ANY_VALUE_DEPTH } from './limits.js';
import type { AnyValue, KeyValue } from './types.js';

/*
 * Field readers for OTLP/JSON (the protobuf JSON mapping with OTLP's
 * deviations: hex ids, integer enums). Every reader takes the parent path and
 * the field name and only builds the full path when it has to report an error.
 * `null` is treated like an absent field (default value), as protobuf JSON
 * parsers do.
 */

export type JsonObject = Record<string, unknown>;

/** `parent.name`, or just `name` at the root. */
export function at(parent: string, name: string): string {
  return parent === '' ? name : `${parent}.${name}`;
}

export function fail(path: string, message: string): never {
  throw new OtlpDecodeError({ message, path });
}

/**
 * Reads a field by its lowerCamelCase JSON name, falling back to the original
 * proto field name (receivers must accept both). `null` reads as absent.
 */
export function field(obj: JsonObject, camel: string, snake?: string): unknown {
  let v = obj[camel];
  if (v === undefined && snake !== undefined) v = obj[snake];
  return v === null ? undefined : v;
}

function describe(v: unknown): string {
  if (Array.isArray(v)) return 'an array';
  if (v === null) return 'null';
  return typeof v === 'object' ? 'an object' : `${typeof v} ${JSON.stringify(v)?.slice(0, 40) ?? ''}`;
}

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A message value: absent → undefined, otherwise must be a JSON object. */
export function readObject(v: unknown, path: string): JsonObject | undefined {
  if (v === undefined || v === null) return undefined;
  if (!isObject(v)) fail(path, `expected an object, got ${describe(v)}`);
  return v;
}

/** A repeated field: absent → [], otherwise must be a JSON array. */
export function readArray(v: unknown, path: string): readonly unknown[] {
  if (v === undefined) return [];
  if (!Array.isArray(v)) fail(path, `expected an array, got ${describe(v)}`);
  return v;
}

export function readString(v: unknown, parent: string, name: string): string {
  if (v === undefined) return '';
  if (typeof v !== 'string') fail(at(parent, name), `expected a string, got ${describe(v)}`);
  return v;
}

export function readBool(v: unknown, parent: string, name: string): boolean {
  if (v === undefined) return false;
  if (typeof v !== 'boolean') fail(at(parent, name), `expected a boolean, got ${describe(v)}`);
  return v;
}

const UNSIGNED_DECIMAL = /^\d+$/;
const SIGNED_DECIMAL = /^-?\d+$/;
const UINT64_MAX = (1n << 64n) - 1n;
const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;

/**
 * A 64-bit integer: a decimal string (the spec's form) or a JSON number.
 * Numbers above 2^53 arrive already rounded by JSON.parse; they are taken
 * as the exact value of that double (what a JS sender held anyway).
 */
function readInteger64(v: unknown, parent: string, name: string, signed: boolean): bigint {
  if (v === undefined) return 0n;
  let n: bigint;
  if (typeof v === 'string' && (signed ? SIGNED_DECIMAL : UNSIGNED_DECIMAL).test(v)) n = BigInt(v);
  else if (typeof v === 'number' && Number.isInteger(v)) n = BigInt(v);
  else return fail(at(parent, name), `expected an integer (decimal string or number), got ${describe(v)}`);
  if (signed ? n < INT64_MIN || n > INT64_MAX : n > UINT64_MAX) {
    fail(at(parent, name), `${n} is out of range for ${signed ? 'int64' : 'uint64'}`);
  }
  return n;
}

/** A fixed64 / uint64 field such as a timestamp. */
export function readUint64(v: unknown, parent: string, name: string): bigint {
  return readInteger64(v, parent, name, false);
}

/** An int64 field such as AnyValue.intValue. */
export function readInt64(v: unknown, parent: string, name: string): bigint {
  return readInteger64(v, parent, name, true);
}

/** A uint32 / fixed32 field (counts, flags): an integer number or decimal string. */
export function readUint32(v: unknown, parent: string, name: string): number {
  if (v === undefined) return 0;
  const n = typeof v === 'string' && UNSIGNED_DECIMAL.test(v) ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > 0xffffffff) {
    fail(at(parent, name), `expected a uint32, got ${describe(v)}`);
  }
  return n;
}

/** An enum: its integer value (OTLP's required form) or its proto name. */
export function readEnum(v: unknown, names: Readonly<Record<string, number>>, parent: string, name: string): number {
  if (v === undefined) return 0;
  if (typeof v === 'number' && Number.isInteger(v) && v >= -0x80000000 && v <= 0x7fffffff) return v;
  if (typeof v === 'string' && Object.hasOwn(names, v)) return names[v]!;
  return fail(
    at(parent, name),
    `expected an enum integer or one of ${Object.keys(names).join(', ')}, got ${describe(v)}`,
  );
}

const NUMERIC = /^-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** A double: a JSON number, "NaN", "Infinity", "-Infinity", or a numeric string. */
export function readDouble(v: unknown, parent: string, name: string): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string') {
    if (v === 'NaN') return NaN;
    if (v === 'Infinity') return Infinity;
    if (v === '-Infinity') return -Infinity;
    if (NUMERIC.test(v)) return Number(v);
  }
  return fail(at(parent, name), `expected a double, got ${describe(v)}`);
}

const HEX = /^[0-9a-fA-F]*$/;

/** A trace/span id: hex (any case) of exactly `bytes` bytes, or '' when absent. */
export function readHexId(v: unknown, bytes: 8 | 16, parent: string, name: string): string {
  if (v === undefined) return '';
  if (typeof v !== 'string') fail(at(parent, name), `expected a hex string, got ${describe(v)}`);
  if (v.length === 0) return '';
  if (v.length !== bytes * 2 || !HEX.test(v)) {
    fail(at(parent, name), `expected ${bytes * 2} hex digits (${bytes} bytes), got ${JSON.stringify(v.slice(0, 40))}`);
  }
  return v.toLowerCase();
}

const BASE64 = /^[A-Za-z0-9+/\-_]*={0,2}$/;

/** A bytes field: standard or URL-safe base64, padding optional. */
export function readBase64(v: unknown, parent: string, name: string): Uint8Array {
  if (v === undefined) return new Uint8Array(0);
  if (typeof v !== 'string' || !BASE64.test(v) || v.replace(/=+$/, '').length % 4 === 1) {
    fail(at(parent, name), `expected base64, got ${describe(v)}`);
  }
  return new Uint8Array(Buffer.from(v, 'base64'));
}

/** One `{ "key": ..., "value": AnyValue }` entry; `depth` counts enclosing AnyValue containers. */
export function readKeyValue(v: unknown, path: string, depth: number): KeyValue {
  const o = readObject(v, path) ?? {};
  return {
    key: readString(field(o, 'key'), path, 'key'),
    value: readAnyValue(field(o, 'value'), at(path, 'value'), depth + 1),
  };
}

export function readKeyValues(v: unknown, path: string, depth: number): KeyValue[] {
  const items = readArray(v, path);
  const out = new Array<KeyValue>(items.length);
  for (let i = 0; i < items.length; i++) out[i] = readKeyValue(items[i], `${path}[${i}]`, depth);
  return out;
}

/**
 * An AnyValue object: at most one member of the oneof may be set (a second
 * one is an error, as in protobuf JSON); none set (or `{}`) is the empty value, null.
 */
export function readAnyValue(v: unknown, path: string, depth: number): AnyValue {
  if (depth > MAX_ANY_VALUE_DEPTH) fail(path, `AnyValue nested deeper than ${MAX_ANY_VALUE_DEPTH} levels`);
  const o = readObject(v, path);
  if (o === undefined) return null;
  let value: AnyValue = null;
  let member: string | undefined;
  for (const key of Object.keys(o)) {
    const raw = o[key];
    if (raw === null || raw === undefined) continue;
    let next: AnyValue;
    switch (key) {
      case 'stringValue':
      case 'string_value':
        next = readString(raw, path, key);
        break;
      case 'boolValue':
      case 'bool_value':
        next = readBool(raw, path, key);
        break;
      case 'intValue':
      case 'int_value':
        next = readInt64(raw, path, key);
        break;
      case 'doubleValue':
      case 'double_value':
        next = readDouble(raw, path, key);
        break;
      case 'bytesValue':
      case 'bytes_value':
        next = readBase64(raw, path, key);
        break;
      case 'arrayValue':
      case 'array_value': {
        const arrPath = at(path, key);
        const items = readArray(field(readObject(raw, arrPath) ?? {}, 'values'), at(arrPath, 'values'));
        const values = new Array<AnyValue>(items.length);
        for (let i = 0; i < items.length; i++) values[i] = readAnyValue(items[i], `${arrPath}.values[${i}]`, depth + 1);
        next = values;
        break;
      }
      case 'kvlistValue':
      case 'kvlist_value': {
        const kvPath = at(path, key);
        next = { kvlist: readKeyValues(field(readObject(raw, kvPath) ?? {}, 'values'), at(kvPath, 'values'), depth) };
        break;
      }
      default:
        continue; // unknown member from a newer schema
    }
    if (member !== undefined) fail(path, `AnyValue has more than one value set (${member}, ${key})`);
    member = key;
    value = next;
  }
  return value;
}
