/**
 * A minimal FlatBuffers writer for the few Arrow IPC metadata tables we emit
 * (Message, Schema, Field, type tables, RecordBatch). It lays the buffer out
 * front to back: the root offset, then each table preceded by its vtable, then
 * the table's children. Every offset therefore points forward, as FlatBuffers
 * requires, and every scalar, vector and struct is aligned to its own size
 * relative to the buffer start (Arrow's verifier checks alignment).
 */

/** A scalar field of a table. `at` is set to its byte position once written. */
export interface FbScalar {
  readonly kind: 'u8' | 'bool' | 'i16' | 'i32' | 'i64';
  readonly value: number;
  at?: number;
}

export interface FbTable {
  readonly kind: 'table';
  /** Indexed by field id; undefined for absent fields (a union takes two ids: type then value). */
  readonly fields: ReadonlyArray<FbScalar | FbChild | undefined>;
}
export interface FbString {
  readonly kind: 'string';
  readonly value: string;
}
export interface FbTableVector {
  readonly kind: 'tables';
  readonly items: readonly FbTable[];
}
/** A vector of 16-byte structs of two int64s (Arrow's FieldNode and Buffer); `at` is set to where its first element sits. */
export interface FbStructVector {
  readonly kind: 'int64Pairs';
  readonly count: number;
  at?: number;
}
export type FbChild = FbTable | FbString | FbTableVector | FbStructVector;

const SCALAR_SIZE = { u8: 1, bool: 1, i16: 2, i32: 4, i64: 8 } as const;

export const fb = {
  u8: (value: number): FbScalar => ({ kind: 'u8', value }),
  bool: (value: boolean): FbScalar => ({ kind: 'bool', value: value ? 1 : 0 }),
  i16: (value: number): FbScalar => ({ kind: 'i16', value }),
  i32: (value: number): FbScalar => ({ kind: 'i32', value }),
  i64: (value: number): FbScalar => ({ kind: 'i64', value }),
  table: (...fields: Array<FbScalar | FbChild | undefined>): FbTable => ({ kind: 'table', fields }),
  string: (value: string): FbString => ({ kind: 'string', value }),
  tables: (items: readonly FbTable[]): FbTableVector => ({ kind: 'tables', items }),
  int64Pairs: (count: number): FbStructVector => ({ kind: 'int64Pairs', count }),
};

function isScalar(f: FbScalar | FbChild): f is FbScalar {
  return f.kind === 'u8' || f.kind === 'bool' || f.kind === 'i16' || f.kind === 'i32' || f.kind === 'i64';
}

class Writer {
  private buf = new Uint8Array(1024);
  private view = new DataView(this.buf.buffer);
  pos = 0;

  private ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  /** Pads with zeros until `(pos + extra) % align === 0`. */
  align(align: number, extra = 0): void {
    const pad = (align - ((this.pos + extra) % align)) % align;
    this.ensure(pad);
    this.pos += pad; // the buffer is zero-filled and never reused
  }

  skip(n: number): number {
    this.ensure(n);
    const at = this.pos;
    this.pos += n;
    return at;
  }

  setU8(at: number, v: number): void {
    this.view.setUint8(at, v);
  }
  setU16(at: number, v: number): void {
    this.view.setUint16(at, v, true);
  }
  setI16(at: number, v: number): void {
    this.view.setInt16(at, v, true);
  }
  setI32(at: number, v: number): void {
    this.view.setInt32(at, v, true);
  }
  setU32(at: number, v: number): void {
    this.view.setUint32(at, v, true);
  }
  setI64(at: number, v: number): void {
    this.view.setBigInt64(at, BigInt(v), true);
  }
  bytes(at: number, b: Uint8Array): void {
    this.buf.set(b, at);
  }
  result(): Uint8Array {
    return this.buf.slice(0, this.pos);
  }
}

function writeScalar(w: Writer, at: number, s: FbScalar): void {
  switch (s.kind) {
    case 'u8':
    case 'bool':
      w.setU8(at, s.value);
      break;
    case 'i16':
      w.setI16(at, s.value);
      break;
    case 'i32':
      w.setI32(at, s.value);
      break;
    case 'i64':
      w.setI64(at, s.value);
      break;
  }
}

/** Writes a child object and returns its position. */
function writeChild(w: Writer, c: FbChild): number {
  switch (c.kind) {
    case 'table':
      return writeTable(w, c);
    case 'string': {
      const bytes = new TextEncoder().encode(c.value);
      w.align(4);
      const at = w.skip(4 + bytes.length + 1);
      w.setU32(at, bytes.length);
      w.bytes(at + 4, bytes);
      return at;
    }
    case 'tables': {
      w.align(4);
      const at = w.skip(4 + 4 * c.items.length);
      w.setU32(at, c.items.length);
      c.items.forEach((item, i) => {
        const slot = at + 4 + 4 * i;
        w.setU32(slot, writeTable(w, item) - slot);
      });
      return at;
    }
    case 'int64Pairs': {
      w.align(8, 4);
      const at = w.skip(4 + 16 * c.count);
      w.setU32(at, c.count);
      c.at = at + 4;
      return at;
    }
  }
}

function writeTable(w: Writer, t: FbTable): number {
  // inline layout: the vtable offset first, then fields largest first so no padding is needed between them
  const present = t.fields.flatMap((f, id) =>
    f === undefined ? [] : [{ id, f, size: isScalar(f) ? SCALAR_SIZE[f.kind] : 4 }],
  );
  present.sort((a, b) => b.size - a.size || a.id - b.id);
  const maxAlign = Math.max(4, ...present.map((p) => p.size));
  const slots = new Map<number, number>();
  let inline = 4;
  for (const p of present) {
    inline += (p.size - (inline % p.size)) % p.size;
    slots.set(p.id, inline);
    inline += p.size;
  }
  const vtableSize = 4 + 2 * t.fields.length;

  w.align(2);
  const vtable = w.skip(vtableSize);
  w.align(maxAlign);
  const table = w.skip(inline);
  w.setU16(vtable, vtableSize);
  w.setU16(vtable + 2, inline);
  w.setI32(table, table - vtable);
  for (const [id, slot] of slots) w.setU16(vtable + 4 + 2 * id, slot);

  for (const p of present) {
    const at = table + (slots.get(p.id) ?? 0);
    if (isScalar(p.f)) {
      writeScalar(w, at, p.f);
      p.f.at = at;
    } else {
      w.setU32(at, writeChild(w, p.f) - at);
    }
  }
  return table;
}

/** Serialises a root table into a FlatBuffer; positions recorded in `at` fields are relative to its start. */
export function buildFlatBuffer(root: FbTable): Uint8Array {
  const w = new Writer();
  const rootSlot = w.skip(4);
  w.setU32(rootSlot, writeTable(w, root) - rootSlot);
  return w.result();
}
