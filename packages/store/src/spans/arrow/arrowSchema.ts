import { fb, type FbTable } from './flatbuffer.js';
import { encapsulateMessage, MESSAGE_HEADER } from './ipcMessage.js';

/** The Arrow types the spans schema uses (a subset of the spec's Type union). */
export type ArrowTypeName =
  'utf8' | 'bool' | 'uint8' | 'uint16' | 'uint32' | 'uint64' | 'float64' | 'timestampNsUtc' | 'list' | 'struct' | 'map';

export interface ArrowField {
  readonly name: string;
  readonly type: ArrowTypeName;
  readonly nullable: boolean;
  readonly children: readonly ArrowField[];
}

/** Type union tags from the Arrow spec (Schema.fbs). */
const TYPE_TAG: Record<ArrowTypeName, number> = {
  uint8: 2,
  uint16: 2,
  uint32: 2,
  uint64: 2,
  float64: 3,
  utf8: 5,
  bool: 6,
  timestampNsUtc: 10,
  list: 12,
  struct: 13,
  map: 17,
};

/** Buffers each type has in a record batch body (validity first). */
export const BUFFERS_PER_TYPE: Record<ArrowTypeName, number> = {
  utf8: 3,
  bool: 2,
  uint8: 2,
  uint16: 2,
  uint32: 2,
  uint64: 2,
  float64: 2,
  timestampNsUtc: 2,
  list: 2,
  struct: 1,
  map: 2,
};

function typeTable(type: ArrowTypeName): FbTable {
  switch (type) {
    case 'uint8':
      return fb.table(fb.i32(8), fb.bool(false));
    case 'uint16':
      return fb.table(fb.i32(16), fb.bool(false));
    case 'uint32':
      return fb.table(fb.i32(32), fb.bool(false));
    case 'uint64':
      return fb.table(fb.i32(64), fb.bool(false));
    case 'float64':
      return fb.table(fb.i16(2)); // DOUBLE
    case 'timestampNsUtc':
      return fb.table(fb.i16(3), fb.string('UTC')); // NANOSECOND
    case 'map':
      return fb.table(fb.bool(false)); // keysSorted
    case 'utf8':
    case 'bool':
    case 'list':
    case 'struct':
      return fb.table();
  }
}

function fieldTable(f: ArrowField): FbTable {
  // Field: name, nullable, type_type, type, dictionary, children
  return fb.table(
    fb.string(f.name),
    fb.bool(f.nullable),
    fb.u8(TYPE_TAG[f.type]),
    typeTable(f.type),
    undefined,
    fb.tables(f.children.map(fieldTable)),
  );
}

/** Field nodes and buffers a record batch of these fields has (depth-first, pre-order). */
export function countNodesAndBuffers(fields: readonly ArrowField[]): { nodes: number; buffers: number } {
  let nodes = 0;
  let buffers = 0;
  const visit = (f: ArrowField): void => {
    nodes += 1;
    buffers += BUFFERS_PER_TYPE[f.type];
    f.children.forEach(visit);
  };
  fields.forEach(visit);
  return { nodes, buffers };
}

/** One encapsulated Schema message (little-endian, no custom metadata). */
export function schemaMessage(fields: readonly ArrowField[]): Uint8Array {
  const schema = fb.table(fb.i16(0), fb.tables(fields.map(fieldTable)));
  return encapsulateMessage(MESSAGE_HEADER.schema, schema, 0).bytes;
}

const leaf =
  (type: ArrowTypeName, nullable = false) =>
  (name: string): ArrowField => ({ name, type, nullable, children: [] });

export const arrowField = {
  utf8: leaf('utf8'),
  bool: leaf('bool'),
  uint8: leaf('uint8'),
  uint16: leaf('uint16'),
  uint32: leaf('uint32'),
  uint64: leaf('uint64'),
  nullableFloat64: leaf('float64', true),
  timestampNsUtc: leaf('timestampNsUtc'),
  /** Map<Utf8, Utf8> laid out as the spec says: List<entries: Struct<key, value>>. */
  utf8Map: (name: string): ArrowField => ({
    name,
    type: 'map',
    nullable: false,
    children: [
      { name: 'entries', type: 'struct', nullable: false, children: [leaf('utf8')('key'), leaf('utf8')('value')] },
    ],
  }),
  listOfStruct: (name: string, members: readonly ArrowField[]): ArrowField => ({
    name,
    type: 'list',
    nullable: false,
    children: [{ name: 'item', type: 'struct', nullable: false, children: members }],
  }),
};
