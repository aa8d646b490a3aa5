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
export class Utf8MapColumn {
  readonly offsets = new OffsetsColumn();
  readonly keys = new Utf8Column();
  readonly values = new Utf8Column();
  /** Entries written, counting those of rows `repeatRow` has only counted so far. */
  entries = 0;
  /** Rows `repeatRow` counted but did not write: copies of the row [rowFrom, rowFrom + rowLength), the last one written. */
  private pendingRows = 0;
  private rowFrom = 0;
  private rowLength = 0;
  /** Where the last counted copy starts: the `from` of a further repeat of the same row. */
  private nextFrom = -1;

  reset(): void {
    this.offsets.reset();
    this.keys.reset();
    this.values.reset();
    this.entries = 0;
    this.pendingRows = 0;
  }

  /** Writes the rows `repeatRow` only counted (every other method first does): doubling copies, then their offsets. */
  private flush(): void {
    const k = this.pendingRows;
    this.pendingRows = 0;
    const length = this.rowLength;
    const written = this.entries - k * length;
    let have = 1;
    let left = k;
    while (left > 0) {
      // the row and its copies so far lie back to back from rowFrom
      const rows = Math.min(have, left);
      this.keys.repeat(this.rowFrom, this.rowFrom + rows * length);
      this.values.repeat(this.rowFrom, this.rowFrom + rows * length);
      have += rows;
      left -= rows;
    }
    for (let i = 1; i <= k; i++) this.offsets.push(written + i * length);
  }
  entry(key: string, value: string): void {
    if (this.pendingRows !== 0) this.flush();
    this.keys.push(key);
    this.values.push(value);
    this.entries++;
  }
  /** An entry whose value is bytes [start, end) of `src`, known to be valid UTF-8. */
  entryBytes(key: string, src: Uint8Array, start: number, end: number): void {
    this.keys.push(key);
    this.values.pushBytes(src, start, end);
    this.entries++;
  }
  /** An entry whose key is `bytes` (`words` over them; see Utf8Column.pushWords), valid UTF-8; its value follows. */
  keyBytes(bytes: Uint8Array, words: Uint32Array): Utf8Column {
    if (this.pendingRows !== 0) this.flush();
    this.keys.pushWords(bytes, words);
    this.entries++;
    return this.values;
  }
  /** An entry whose key is `key`; its value follows (`values.push…`). */
  key(key: string): Utf8Column {
    if (this.pendingRows !== 0) this.flush();
    this.keys.push(key);
    this.entries++;
    return this.values;
  }
  endRow(): void {
    if (this.pendingRows !== 0) this.flush();
    this.offsets.push(this.entries);
  }
  /** Drops the entries from `entries` on (a row being written). */
  truncate(entries: number): void {
    if (this.pendingRows !== 0) this.flush();
    this.keys.truncate(entries);
    this.values.truncate(entries);
    this.entries = entries;
  }
  /**
   * Ends the row with a copy of the previous row's entries, which started at
   * entry `from`; returns where the copy starts. Copies of the same row, one
   * after another (a resource's attributes, span after span), are only
   * counted, and written together by the next other call.
   */
  repeatRow(from: number): number {
    const start = this.entries;
    if (this.pendingRows !== 0 && from === this.nextFrom) {
      this.pendingRows++;
      this.entries += this.rowLength;
      this.nextFrom = start;
      return start;
    }
    if (this.pendingRows !== 0) this.flush();
    this.rowFrom = from;
    this.rowLength = start - from;
    this.pendingRows = 1;
    this.entries += this.rowLength;
    this.nextFrom = start;
    return start;
  }
  emit(parts: BatchParts): void {
    if (this.pendingRows !== 0) this.flush();
    this.offsets.emit(parts);
    emitStruct(parts, this.entries);
    this.keys.emit(parts);
    this.values.emit(parts);
  }
  trim(maxBytes: number): void {
    if (this.pendingRows !== 0) this.flush();
    this.keys.trim(maxBytes);
    this.values.trim(maxBytes);
  }
}

export interface Column {
  reset(): void;
  emit(parts: BatchParts): void;
}

/** A List<Struct<…>> column whose members the caller fills; rows end with endRow. */
export class StructListColumn {
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
export class KeyOrderCheck {
  private readonly slotKey: string[] = new Array<string>(SLOTS).fill('');
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

  /** Whether the list's next key keeps the order: false sends the list to toTextMap. */
  accept(key: string): boolean {
    const len = key.length;
    if (len > 0) {
      const c = key.charCodeAt(0);
      if (c >= 48 && c <= 57) return false;
      if (len === 9 && key === '__proto__') return false;
    }
    let h = len & (SLOTS - 1);
    while (this.slotStamp[h] === this.stamp) {
      const other = this.slotKey[h]!;
      if (other.length === len && other === key) return false;
      h = (h + 1) & (SLOTS - 1);
    }
    this.slotStamp[h] = this.stamp;
    this.slotKey[h] = key;
    return true;
  }
}

/**
 * All columns of the spans schema, in SPANS_ARROW_FIELDS order, reused across
 * batches. A row is written whole by `add`, or in two parts — `addEarly`
 * now, `addLate` (run id, usage and cost, which a request's later spans can
 * still change) once the request's spans are known — or, by the collector's
 * fused decoder, column by column after `beginRow`.
 */
export class SpanColumns {
  private rows = 0;
  readonly keyCheck = new KeyOrderCheck();
  /** The previous row's resource attributes list, and where its entries start. */
  private lastResource: KeyValues | undefined;
  private lastResourceFrom = 0;
  readonly projectId = new Utf8Column();
  readonly traceId = new Utf8Column();
  readonly spanId = new Utf8Column();
  readonly parentSpanId = new Utf8Column();
  readonly traceState = new Utf8Column();
  readonly runId = new Utf8Column();
  readonly isRunRoot = new BoolColumn();
  readonly serviceName = new Utf8Column();
  readonly name = new Utf8Column();
  readonly spanKind = new Uint8Column();
  readonly stepKind = new Utf8Column();
  readonly stepName = new Utf8Column();
  readonly attempt = new Uint16Column();
  readonly toolName = new Utf8Column();
  readonly toolArgsHash = new Utf8Column();
  readonly stateHash = new Utf8Column();
  readonly outputHash = new Utf8Column();
  readonly sideEffect = new BoolColumn();
  readonly model = new Utf8Column();
  readonly provider = new Utf8Column();
  readonly inputTokens = new Uint64Column();
  readonly outputTokens = new Uint64Column();
  readonly cachedInputTokens = new Uint64Column();
  readonly costUsd = new NullableFloat64Column();
  readonly startTime = new Int64Column();
  readonly endTime = new Int64Column();
  readonly statusCode = new Uint8Column();
  readonly statusMessage = new Utf8Column();
  readonly errorType = new Utf8Column();
  readonly runOutcome = new Utf8Column();
  readonly attributes = new Utf8MapColumn();
  readonly attributeTypes = new Utf8MapColumn();
  readonly resourceAttributes = new Utf8MapColumn();
  readonly scopeName = new Utf8Column();
  readonly scopeVersion = new Utf8Column();
  readonly eventTime = new Int64Column();
  readonly eventName = new Utf8Column();
  readonly eventAttributes = new Utf8Column();
  readonly events = new StructListColumn([this.eventTime, this.eventName, this.eventAttributes]);
  readonly linkTraceId = new Utf8Column();
  readonly linkSpanId = new Utf8Column();
  readonly linkTraceState = new Utf8Column();
  readonly linkAttributes = new Utf8Column();
  readonly links = new StructListColumn([this.linkTraceId, this.linkSpanId, this.linkTraceState, this.linkAttributes]);
  readonly droppedAttributesCount = new Uint32Column();
  readonly droppedEventsCount = new Uint32Column();
  readonly droppedLinksCount = new Uint32Column();

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
    this.addEarly(s);
    this.addLate(s);
  }

  /** Starts a row the caller writes column by column (every column but the late ones, then `addLate`). */
  beginRow(): void {
    this.rows++;
  }

  /** The late columns of a row begun before: run id, tokens and cost. */
  addLate(s: Pick<SpanRecord, 'runId' | 'inputTokens' | 'outputTokens' | 'cachedInputTokens' | 'costUsd'>): void {
    this.runId.push(s.runId);
    this.inputTokens.push(s.inputTokens);
    this.outputTokens.push(s.outputTokens);
    this.cachedInputTokens.push(s.cachedInputTokens);
    this.costUsd.push(s.costUsd);
  }

  /** Every column of a row but the late ones (see addLate). */
  addEarly(s: SpanRecord): void {
    this.rows++;
    this.projectId.push(s.projectId);
    this.traceId.push(s.traceId);
    this.spanId.push(s.spanId);
    this.parentSpanId.push(s.parentSpanId);
    this.traceState.push(s.traceState);
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
    this.addEvents(s.events);
    this.addLinks(s.links);
    this.droppedAttributesCount.push(s.droppedAttributesCount);
    this.droppedEventsCount.push(s.droppedEventsCount);
    this.droppedLinksCount.push(s.droppedLinksCount);
  }

  /** A row's events list. */
  addEvents(events: SpanRecord['events']): void {
    for (const e of events) {
      this.eventTime.push(e.timeUnixNano);
      this.eventName.push(e.name);
      this.eventAttributes.push(toJsonObjectText(e.attributes));
    }
    this.events.endRow(events.length);
  }

  /** A row's links list. */
  addLinks(links: SpanRecord['links']): void {
    for (const l of links) {
      this.linkTraceId.push(l.traceId);
      this.linkSpanId.push(l.spanId);
      this.linkTraceState.push(l.traceState);
      this.linkAttributes.push(toJsonObjectText(l.attributes));
    }
    this.links.endRow(links.length);
  }

  /** A row's attributes and attribute_types maps. */
  addAttributes(kvs: KeyValues): void {
    this.addMap(kvs, this.attributes, this.attributeTypes);
  }

  /** A row's resource_attributes map: the same list as the row before's is copied as bytes. */
  addResourceAttributes(kvs: KeyValues): void {
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
        if (!check.accept(key)) break;
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
