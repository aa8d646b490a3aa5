import { FIELD_SOURCES, type CanonicalField } from '@telltale/semconv';
import type { AnyValue, KeyValue } from '../otlp/types.js';

const FIELDS = Object.keys(FIELD_SOURCES) as CanonicalField[];
const NO_RANK = 0x7fff_ffff;
const RANK_BITS = 8;
const RANK_MASK = (1 << RANK_BITS) - 1;

/** Each canonical field's slot in a {@link SpanFields}. */
export const Field = Object.fromEntries(FIELDS.map((f, i) => [f, i])) as Readonly<Record<CanonicalField, number>>;

/**
 * FIELD_SOURCES compiled once: attribute name → the (field slot, precedence
 * rank) pairs it feeds, packed as `slot << 8 | rank`. A name that feeds no
 * field is absent, so a span's other attributes cost one Map miss each.
 */
const SOURCES: ReadonlyMap<string, readonly number[]> = (() => {
  const map = new Map<string, number[]>();
  FIELDS.forEach((field, slot) => {
    FIELD_SOURCES[field].forEach((name: string, rank: number) => {
      // invariant (checked at load): a plain Error, never a user's error
      if (rank > RANK_MASK) throw new Error(`FIELD_SOURCES.${field}: more than ${RANK_MASK + 1} sources`);
      const codes = map.get(name) ?? [];
      codes.push((slot << RANK_BITS) | rank);
      map.set(name, codes);
    });
  });
  return map;
})();

/** The (slot, rank) codes an attribute name feeds, or undefined when it feeds no canonical field. */
export function fieldSourcesOf(key: string): readonly number[] | undefined {
  return SOURCES.get(key);
}

function toNumber(value: AnyValue | undefined): number {
  return typeof value === 'bigint'
    ? Number(value)
    : typeof value === 'number'
      ? value
      : typeof value === 'string'
        ? Number(value)
        : NaN;
}

/**
 * The canonical fields of one span, read from its attributes in one pass:
 * for each field, the value of its highest-precedence source that is
 * present (not null or empty); of a name repeated in the list, the last
 * (OTLP maps are last-wins). One instance is reused span after span — no
 * per-span Map or object — so `read` resets it.
 */
export class SpanFields {
  private readonly values: (AnyValue | undefined)[] = new Array<AnyValue | undefined>(FIELDS.length).fill(undefined);
  private readonly ranks = new Int32Array(FIELDS.length).fill(NO_RANK);
  /** The slots set since `begin`, so it resets only those. */
  private readonly touched = new Int32Array(FIELDS.length);
  private touchedCount = 0;

  read(attributes: readonly KeyValue[]): this {
    this.begin();
    for (let i = 0; i < attributes.length; i++) {
      const kv = attributes[i]!;
      const codes = SOURCES.get(kv.key);
      if (codes !== undefined) this.offer(codes, kv.value);
    }
    return this;
  }

  /** Starts a span read attribute by attribute with `offer`. */
  begin(): void {
    for (let i = 0; i < this.touchedCount; i++) {
      const slot = this.touched[i]!;
      this.values[slot] = undefined;
      this.ranks[slot] = NO_RANK;
    }
    this.touchedCount = 0;
  }

  /** The value of the next attribute, whose name feeds `codes` (fieldSourcesOf). */
  offer(codes: readonly number[], value: AnyValue): void {
    if (value === null || value === '') return;
    for (let c = 0; c < codes.length; c++) {
      const slot = codes[c]! >>> RANK_BITS;
      const rank = codes[c]! & RANK_MASK;
      if (rank <= this.ranks[slot]!) {
        if (this.ranks[slot] === NO_RANK) this.touched[this.touchedCount++] = slot;
        this.ranks[slot] = rank;
        this.values[slot] = value;
      }
    }
  }

  value(slot: number): AnyValue | undefined {
    return this.values[slot];
  }

  string(slot: number): string {
    const value = this.values[slot];
    if (value === undefined) return '';
    if (typeof value === 'string') return value;
    if (typeof value === 'bigint' || typeof value === 'number' || typeof value === 'boolean') return String(value);
    return '';
  }

  /** A non-negative count; strings holding integers are accepted (some SDKs send them). */
  count(slot: number): number {
    const n = toNumber(this.values[slot]);
    return Number.isFinite(n) && n >= 0 ? Math.trunc(n) : 0;
  }

  number(slot: number): number | null {
    const n = toNumber(this.values[slot]);
    return Number.isFinite(n) ? n : null;
  }

  bool(slot: number): boolean {
    const value = this.values[slot];
    return value === true || value === 'true';
  }
}
