import { attributeText, attributeType } from '../../attributeValue.js';
import { toJsonObjectText, toTextMap, type KeyValues } from '../attributeMaps.js';
import type { SpanRecord } from '../SpanRecord.js';
import {
  type BatchParts,
  BoolColumn,
  emitStruct,
  Int64Column,
  NullableFloat64Column,
  OffsetsColumn,
  Uint16Column,
  Uint32Column,
  Uint64Column,
  Uint8Column,
  Utf8Column,
} from './columns.js';

/** A Map<Utf8, Utf8> column: offsets, then the entries' keys and values. */
class Utf8MapColumn {
  readonly offsets = new OffsetsColumn();
  readonly keys = new Utf8Column();
  readonly values = new Utf8Column();
  entries = 0;

  reset(): void {
    this.offsets.reset();
    this.keys.reset();
    this.values.reset();
    this.entries = 0;
  }
  entry(key: string, value: string): void {
    this.keys.push(key);
    this.values.push(value);
    this.entries++;
  }
  endRow(): void {
    this.offsets.push(this.entries);
  }
  /** Drops the entries from `entries` on (a row being written). */
  truncate(entries: number): void {
    this.keys.truncate(entries);
    this.values.truncate(entries);
    this.entries = entries;
  }
  /** Ends the row with a copy of the previous row's entries, which started at entry `from`; returns where the copy starts. */
  repeatRow(from: number): number {
    const to = this.entries;
    this.keys.repeat(from, to);
    this.values.repeat(from, to);
    this.entries += to - from;
    this.endRow();
    return to;
  }
  emit(parts: BatchParts): void {
    this.offsets.emit(parts);
    emitStruct(parts, this.entries);
    this.keys.emit(parts);
    this.values.emit(parts);
  }
  trim(maxBytes: number): void {
    this.keys.trim(maxBytes);
    this.values.trim(maxBytes);
  }
}

interface Column {
  reset(): void;
  emit(parts: BatchParts): void;
}

/** A List<Struct<…>> column whose members the caller fills; rows end with endRow. */
class StructListColumn {
  private readonly offsets = new OffsetsColumn();
  private items = 0;
  constructor(private readonly members: readonly Column[]) {}

  reset(): void {
    this.offsets.reset();
    for (const m of this.members) m.reset();
    this.items = 0;
  }
  endRow(items: number): void {
    this.items += items;
    this.offsets.push(this.items);
  }
  emit(parts: BatchParts): void {
    this.offsets.emit(parts);
    emitStruct(parts, this.items);
    for (const m of this.members) m.emit(parts);
  }
}

/** Lists longer than this go through toTextMap itself. */
const MAX_CHECKED = 128;
const SLOTS = 256;

/**
 * Tells, key by key, whether an attributes list maps to the same entries in
 * the same order as toTextMap's JS object: no duplicate keys, no array-index
 * keys (a JS object puts those first, in numeric order) and no `__proto__`.
 * Duplicates are found with a small open-addressing table on the keys'
 * lengths, comparing keys (a native memcmp) only when lengths collide.
 */
class KeyOrderCheck {
  private readonly slotOf = new Int32Array(SLOTS);
  private readonly slotStamp = new Int32Array(SLOTS);
  private stamp = 0;

  /** Starts a list (of at most MAX_CHECKED keys). */
  begin(): void {
    this.stamp = (this.stamp + 1) | 0;
    if (this.stamp === 0) {
      this.slotStamp.fill(0);
      this.stamp = 1;
    }
  }

  /** Whether kvs[i] (with `key`) keeps the order: false sends the list to toTextMap. */
  accept(kvs: KeyValues, i: number, key: string): boolean {
    const len = key.length;
    if (len > 0) {
      const c = key.charCodeAt(0);
      if (c >= 48 && c <= 57) return false;
      if (len === 9 && key === '__proto__') return false;
    }
    let h = len & (SLOTS - 1);
    while (this.slotStamp[h] === this.stamp) {
      const other = kvs[this.slotOf[h]!]!.key;
      if (other.length === len && other === key) return false;
      h = (h + 1) & (SLOTS - 1);
    }
    this.slotStamp[h] = this.stamp;
    this.slotOf[h] = i;
    return true;
  }
}

/** All columns of the spans schema, in SPANS_ARROW_FIELDS order, reused across batches. */
export class SpanColumns {
  private rows = 0;
  private readonly keyCheck = new KeyOrderCheck();
  /** The previous row's resource attributes list, and where its entries start. */
  private lastResource: KeyValues | undefined;
  private lastResourceFrom = 0;
  private readonly projectId = new Utf8Column();
  private readonly traceId = new Utf8Column();
  private readonly spanId = new Utf8Column();
  private readonly parentSpanId = new Utf8Column();
  private readonly traceState = new Utf8Column();
  private readonly runId = new Utf8Column();
  private readonly isRunRoot = new BoolColumn();
  private readonly serviceName = new Utf8Column();
  private readonly name = new Utf8Column();
  private readonly spanKind = new Uint8Column();
  private readonly stepKind = new Utf8Column();
  private readonly stepName = new Utf8Column();
  private readonly attempt = new Uint16Column();
  private readonly toolName = new Utf8Column();
  private readonly toolArgsHash = new Utf8Column();
  private readonly stateHash = new Utf8Column();
  private readonly outputHash = new Utf8Column();
  private readonly sideEffect = new BoolColumn();
  private readonly model = new Utf8Column();
  private readonly provider = new Utf8Column();
  private readonly inputTokens = new Uint64Column();
  private readonly outputTokens = new Uint64Column();
  private readonly cachedInputTokens = new Uint64Column();
  private readonly costUsd = new NullableFloat64Column();
  private readonly startTime = new Int64Column();
  private readonly endTime = new Int64Column();
  private readonly statusCode = new Uint8Column();
  private readonly statusMessage = new Utf8Column();
  private readonly errorType = new Utf8Column();
  private readonly runOutcome = new Utf8Column();
  private readonly attributes = new Utf8MapColumn();
  private readonly attributeTypes = new Utf8MapColumn();
  private readonly resourceAttributes = new Utf8MapColumn();
  private readonly scopeName = new Utf8Column();
  private readonly scopeVersion = new Utf8Column();
  private readonly eventTime = new Int64Column();
  private readonly eventName = new Utf8Column();
  private readonly eventAttributes = new Utf8Column();
  private readonly events = new StructListColumn([this.eventTime, this.eventName, this.eventAttributes]);
  private readonly linkTraceId = new Utf8Column();
  private readonly linkSpanId = new Utf8Column();
  private readonly linkTraceState = new Utf8Column();
  private readonly linkAttributes = new Utf8Column();
  private readonly links = new StructListColumn([
    this.linkTraceId,
    this.linkSpanId,
    this.linkTraceState,
    this.linkAttributes,
  ]);
  private readonly droppedAttributesCount = new Uint32Column();
  private readonly droppedEventsCount = new Uint32Column();
  private readonly droppedLinksCount = new Uint32Column();

  /** The top-level columns in schema order. */
  private readonly all: readonly Column[] = [
    this.projectId, this.traceId, this.spanId, this.parentSpanId, this.traceState, this.runId, this.isRunRoot,
    this.serviceName, this.name, this.spanKind, this.stepKind, this.stepName, this.attempt, this.toolName,
    this.toolArgsHash, this.stateHash, this.outputHash, this.sideEffect, this.model, this.provider,
    this.inputTokens, this.outputTokens, this.cachedInputTokens, this.costUsd, this.startTime, this.endTime,
    this.statusCode, this.statusMessage, this.errorType, this.runOutcome, this.attributes, this.attributeTypes,
    this.resourceAttributes, this.scopeName, this.scopeVersion, this.events, this.links,
    this.droppedAttributesCount, this.droppedEventsCount, this.droppedLinksCount,
  ]; // prettier-ignore

  get length(): number {
    return this.rows;
  }

  reset(): void {
    for (const c of this.all) c.reset();
    this.rows = 0;
    this.lastResource = undefined;
  }

  /** The string columns, top-level and nested: what trim walks over. */
  private readonly strings: ReadonlyArray<Utf8Column | Utf8MapColumn> = [
    ...this.all.filter((c): c is Utf8Column | Utf8MapColumn => c instanceof Utf8Column || c instanceof Utf8MapColumn),
    this.eventName, this.eventAttributes, this.linkTraceId, this.linkSpanId, this.linkTraceState, this.linkAttributes,
  ]; // prettier-ignore

  /** Lets go of buffers grown past `maxBytes` by an unusually large batch, and of the last span's lists. */
  trim(maxBytes: number): void {
    this.lastResource = undefined;
    for (const c of this.strings) c.trim(maxBytes);
  }

  add(s: SpanRecord): void {
    this.rows++;
    this.projectId.push(s.projectId);
    this.traceId.push(s.traceId);
    this.spanId.push(s.spanId);
    this.parentSpanId.push(s.parentSpanId);
    this.traceState.push(s.traceState);
    this.runId.push(s.runId);
    this.isRunRoot.push(s.isRunRoot);
    this.serviceName.push(s.serviceName);
    this.name.push(s.name);
    this.spanKind.push(s.spanKind);
    this.stepKind.push(s.stepKind);
    this.stepName.push(s.stepName);
    this.attempt.push(s.attempt);
    this.toolName.push(s.toolName);
    this.toolArgsHash.push(s.toolArgsHash);
    this.stateHash.push(s.stateHash);
    this.outputHash.push(s.outputHash);
    this.sideEffect.push(s.sideEffect);
    this.model.push(s.model);
    this.provider.push(s.provider);
    this.inputTokens.push(s.inputTokens);
    this.outputTokens.push(s.outputTokens);
    this.cachedInputTokens.push(s.cachedInputTokens);
    this.costUsd.push(s.costUsd);
    this.startTime.push(s.startTimeUnixNano);
    this.endTime.push(s.endTimeUnixNano);
    this.statusCode.push(s.statusCode);
    this.statusMessage.push(s.statusMessage);
    this.errorType.push(s.errorType);
    this.runOutcome.push(s.runOutcome);
    this.addAttributes(s.attributes);
    this.addResourceAttributes(s.resourceAttributes);
    this.scopeName.push(s.scopeName);
    this.scopeVersion.push(s.scopeVersion);
    for (const e of s.events) {
      this.eventTime.push(e.timeUnixNano);
      this.eventName.push(e.name);
      this.eventAttributes.push(toJsonObjectText(e.attributes));
    }
    this.events.endRow(s.events.length);
    for (const l of s.links) {
      this.linkTraceId.push(l.traceId);
      this.linkSpanId.push(l.spanId);
      this.linkTraceState.push(l.traceState);
      this.linkAttributes.push(toJsonObjectText(l.attributes));
    }
    this.links.endRow(s.links.length);
    this.droppedAttributesCount.push(s.droppedAttributesCount);
    this.droppedEventsCount.push(s.droppedEventsCount);
    this.droppedLinksCount.push(s.droppedLinksCount);
  }

  private addAttributes(kvs: KeyValues): void {
    this.addMap(kvs, this.attributes, this.attributeTypes);
  }

  private addResourceAttributes(kvs: KeyValues): void {
    const map = this.resourceAttributes;
    // the spans of one OTLP resource share its attributes list: copy the previous row's bytes
    if (kvs === this.lastResource && this.rows > 1) {
      this.lastResourceFrom = map.repeatRow(this.lastResourceFrom);
      return;
    }
    this.lastResource = kvs;
    this.lastResourceFrom = map.entries;
    this.addMap(kvs, map, undefined);
  }

  /**
   * Writes a list's texts (and, given `types`, the type tags of its
   * non-string values) straight away while its keys keep toTextMap's order;
   * otherwise rolls the row back and writes what toTextMap itself gives.
   */
  private addMap(kvs: KeyValues, map: Utf8MapColumn, types: Utf8MapColumn | undefined): void {
    const n = kvs.length;
    if (n <= MAX_CHECKED) {
      const check = this.keyCheck;
      check.begin();
      const from = map.entries;
      const typesFrom = types === undefined ? 0 : types.entries;
      let i = 0;
      for (; i < n; i++) {
        const kv = kvs[i]!;
        const key = kv.key;
        if (!check.accept(kvs, i, key)) break;
        const value = kv.value;
        map.entry(key, attributeText(value));
        if (types !== undefined) {
          const type = attributeType(value);
          if (type !== undefined) types.entry(key, type);
        }
      }
      if (i === n) {
        map.endRow();
        types?.endRow();
        return;
      }
      map.truncate(from);
      types?.truncate(typesFrom);
    }
    const typeMap: Record<string, string> | undefined = types === undefined ? undefined : {};
    const textMap = toTextMap(kvs, typeMap);
    for (const key of Object.keys(textMap)) map.entry(key, textMap[key]!);
    map.endRow();
    if (types !== undefined && typeMap !== undefined) {
      for (const key of Object.keys(typeMap)) types.entry(key, typeMap[key]!);
      types.endRow();
    }
  }

  /** Field nodes and buffers in schema order. */
  emit(parts: BatchParts): void {
    for (const c of this.all) c.emit(parts);
  }
}
