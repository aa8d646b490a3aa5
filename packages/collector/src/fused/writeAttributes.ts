import {
  attributeText,
  attributeType,
  type SpanColumns,
  type Utf8Column,
  type Utf8MapColumn,
} from '@telltale/store/encode';
import type { ProtoReader } from '../otlp/protoReader.js';
import type { AnyValue, KeyValue } from '../otlp/types.js';
import {
  limitAttributes,
  limitValue,
  truncateString,
  type LimitCounts,
  type SpanLimits,
} from '../normalise/spanLimits.js';
import type { KeyInfo } from './keyInfo.js';
import { KeyListCheck } from './KeyListCheck.js';
import { viewOf } from './readKeyValueFast.js';
import type { SpanScratch } from './SpanScratch.js';
import { validUtf8 } from './validUtf8.js';
import { ValueKind } from './valueKind.js';

/** Lists longer than this are written through the object path (SpanColumns checks at most this many keys). */
const MAX_CHECKED = 128;
const keyCheck = new KeyListCheck();

/** Starts an entry of `map` with a key (its bytes copied when valid UTF-8); gives the values column. */
function entryKey(map: Utf8MapColumn, info: KeyInfo): Utf8Column {
  return info.utf8 ? map.keyBytes(info.bytes, info.words) : map.key(info.key);
}

/** Attribute `i` of the span as the object path has it (before the limits). */
export function scratchValue(r: ProtoReader, s: SpanScratch, i: number): AnyValue {
  switch (s.kinds[i]!) {
    case ValueKind.string:
      return r.stringAt(s.starts[i]!, s.lens[i]!);
    case ValueKind.bool:
      return s.nums[i] === 1;
    case ValueKind.int: {
      const big = s.objs[i];
      return typeof big === 'bigint' ? big : BigInt(s.nums[i]!);
    }
    case ValueKind.double:
      return s.nums[i]!;
    case ValueKind.object:
      return s.objs[i] ?? null;
    default:
      return null;
  }
}

/**
 * Attribute `i`'s value as the canonical fields read it after the limits:
 * strings cut to the value limit (uncounted: the map entry counts it), safe
 * integers as numbers (SpanFields reads them as it reads the bigints).
 */
export function fieldValue(r: ProtoReader, s: SpanScratch, i: number, maxValueBytes: number): AnyValue {
  switch (s.kinds[i]!) {
    case ValueKind.string:
      return truncateString(r.stringAt(s.starts[i]!, s.lens[i]!), maxValueBytes);
    case ValueKind.bool:
      return s.nums[i] === 1;
    case ValueKind.int:
      return (s.objs[i] as bigint | undefined) ?? s.nums[i]!;
    case ValueKind.double:
      return s.nums[i]!;
    case ValueKind.object: {
      const v = s.objs[i] ?? null;
      return typeof v === 'string' ? truncateString(v, maxValueBytes) : v;
    }
    default:
      return null;
  }
}

/**
 * Writes the first `kept` attributes of the span into the attributes and
 * attribute_types maps of the row being written, exactly as
 * SpanColumns.addAttributes writes the limited list: string values are
 * copied from the body as bytes (cut on a character boundary past the value
 * limit) when they are valid UTF-8. A list whose keys a JS object would
 * reorder (duplicates, array-index keys, `__proto__`), or a long one, goes
 * through the object path instead.
 */
export function writeAttributes(
  cols: SpanColumns,
  r: ProtoReader,
  s: SpanScratch,
  kept: number,
  limits: SpanLimits,
  counts: LimitCounts,
): void {
  const infos = s.infos;
  let ordered = kept <= MAX_CHECKED;
  if (ordered) {
    keyCheck.begin();
    for (let i = 0; i < kept; i++) {
      if (!keyCheck.accept(infos[i]!)) {
        ordered = false;
        break;
      }
    }
  }
  if (!ordered) {
    const kvs: KeyValue[] = [];
    for (let i = 0; i < kept; i++) kvs.push({ key: infos[i]!.key, value: scratchValue(r, s, i) });
    cols.addAttributes(limitAttributes(kvs, limits, counts).attributes);
    return;
  }
  const map = cols.attributes;
  const types = cols.attributeTypes;
  const buf = r.buf;
  const view = viewOf(buf);
  const max = limits.maxValueBytes;
  for (let i = 0; i < kept; i++) {
    const info = infos[i]!;
    switch (s.kinds[i]!) {
      case ValueKind.string: {
        const start = s.starts[i]!;
        const len = s.lens[i]!;
        const values = entryKey(map, info);
        if (len <= max && values.pushAscii(buf, view, start, start + len)) break;
        if (validUtf8(buf, start, len)) {
          let end = start + len;
          if (len > max) {
            end = start + max;
            while (end > start && (buf[end]! & 0xc0) === 0x80) end--; // do not split a multi-byte sequence
            counts.truncatedValues++;
          }
          values.pushBytes(buf, start, end);
        } else {
          const text = r.stringAt(start, len);
          const cut = truncateString(text, max);
          if (cut !== text) counts.truncatedValues++;
          values.push(cut);
        }
        break;
      }
      case ValueKind.bool:
        entryKey(map, info).push(s.nums[i] === 1 ? 'true' : 'false');
        entryKey(types, info).push('bool');
        break;
      case ValueKind.int: {
        const big = s.objs[i];
        if (typeof big === 'bigint') entryKey(map, info).push(big.toString());
        else entryKey(map, info).pushInt(s.nums[i]!);
        entryKey(types, info).push('int');
        break;
      }
      case ValueKind.double:
        entryKey(map, info).push(String(s.nums[i]));
        entryKey(types, info).push('double');
        break;
      case ValueKind.object: {
        const v = limitValue(s.objs[i] ?? null, limits, counts);
        entryKey(map, info).push(attributeText(v));
        const type = attributeType(v);
        if (type !== undefined) entryKey(types, info).push(type);
        break;
      }
      default:
        entryKey(map, info).push('');
        entryKey(types, info).push('empty');
    }
  }
  map.endRow();
  types.endRow();
}
