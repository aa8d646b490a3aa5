import { MAX_ANY_VALUE_DEPTH } from './limits.js';
import type { ProtoReader } from './protoReader.js';
import {
  AV_ARRAY,
  AV_BOOL,
  AV_BYTES,
  AV_DOUBLE,
  AV_FIELDS,
  AV_INT,
  AV_KVLIST,
  AV_STRING,
  KV_FIELDS,
  KV_KEY,
  KV_VALUE,
  LIST_FIELDS,
  LIST_VALUES,
} from './otlpFields.js';
import type { AnyValue, KeyValue } from './types.js';

/*
 * Attribute decoding (opentelemetry.proto.common.v1): KeyValue, the AnyValue
 * oneof, ArrayValue and KeyValueList. Within AnyValue's oneof the last member
 * seen wins; no member set decodes to null. Nesting is capped at
 * MAX_ANY_VALUE_DEPTH so hostile input cannot exhaust the stack.
 */

// AnyValue (oneof)

// ArrayValue and KeyValueList: repeated values = 1

/** `depth` counts the AnyValue containers (arrays/kvlists) this KeyValue sits in. */
export function decodeKeyValue(r: ProtoReader, depth: number): KeyValue {
  let key = '';
  let value: AnyValue = null;
  const parent = r.enter();
  while (r.pos < r.limit) {
    const tag = r.readTag();
    switch (tag) {
      case KV_KEY:
        key = r.readString();
        break;
      case KV_VALUE:
        value = decodeAnyValue(r, depth + 1);
        break;
      default:
        r.skipUnknown(tag, KV_FIELDS, 'KeyValue');
    }
  }
  r.leave(parent);
  return { key, value };
}

export function decodeAnyValue(r: ProtoReader, depth: number): AnyValue {
  if (depth > MAX_ANY_VALUE_DEPTH) r.fail(`AnyValue nested deeper than ${MAX_ANY_VALUE_DEPTH} levels`);
  let value: AnyValue = null; // no oneof member set = empty value
  const parent = r.enter();
  while (r.pos < r.limit) {
    const tag = r.readTag();
    switch (tag) {
      case AV_STRING:
        value = r.readString();
        break;
      case AV_BOOL:
        value = r.readBool();
        break;
      case AV_INT:
        value = r.readInt64();
        break;
      case AV_DOUBLE:
        value = r.readDouble();
        break;
      case AV_ARRAY:
        value = decodeArrayValue(r, depth);
        break;
      case AV_KVLIST:
        value = { kvlist: decodeKeyValueList(r, depth) };
        break;
      case AV_BYTES:
        value = r.readBytes();
        break;
      default:
        r.skipUnknown(tag, AV_FIELDS, 'AnyValue');
    }
  }
  r.leave(parent);
  return value;
}

function decodeArrayValue(r: ProtoReader, depth: number): AnyValue[] {
  const values: AnyValue[] = [];
  const parent = r.enter();
  while (r.pos < r.limit) {
    const tag = r.readTag();
    if (tag === LIST_VALUES) values.push(decodeAnyValue(r, depth + 1));
    else r.skipUnknown(tag, LIST_FIELDS, 'ArrayValue');
  }
  r.leave(parent);
  return values;
}

function decodeKeyValueList(r: ProtoReader, depth: number): KeyValue[] {
  const values: KeyValue[] = [];
  const parent = r.enter();
  while (r.pos < r.limit) {
    const tag = r.readTag();
    if (tag === LIST_VALUES) values.push(decodeKeyValue(r, depth));
    else r.skipUnknown(tag, LIST_FIELDS, 'KeyValueList');
  }
  r.leave(parent);
  return values;
}
