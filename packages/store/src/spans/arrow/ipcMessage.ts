import { buildFlatBuffer, fb, type FbScalar, type FbTable } from './flatbuffer.js';

/** MessageHeader union tags (Message.fbs). */
export const MESSAGE_HEADER = { schema: 1, recordBatch: 3 } as const;
type MessageHeaderTag = (typeof MESSAGE_HEADER)[keyof typeof MESSAGE_HEADER];

/** MetadataVersion.V5 */
const METADATA_V5 = 4;
const CONTINUATION = 0xffffffff;
/** Bytes before the flatbuffer: the continuation marker and the metadata length. */
export const MESSAGE_PREFIX = 8;

/** The end-of-stream marker: a continuation and a zero metadata length. */
export const END_OF_STREAM: Uint8Array = new Uint8Array([0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0]);

/**
 * An encapsulated message's metadata part: continuation marker, int32
 * metadata length, the Message flatbuffer padded to 8 bytes. The body (if
 * any) follows it. `bodyLengthAt` is where the int64 bodyLength sits, so a
 * template can be patched; positions the header's scalars and struct vectors
 * record are made relative to the returned bytes.
 */
export function encapsulateMessage(
  header: MessageHeaderTag,
  table: FbTable,
  bodyLength: number,
): { bytes: Uint8Array; bodyLengthAt: number } {
  const bodyLengthField: FbScalar = fb.i64(bodyLength);
  const message = fb.table(fb.i16(METADATA_V5), fb.u8(header), table, bodyLengthField);
  const flat = buildFlatBuffer(message);
  const metaLength = Math.ceil((MESSAGE_PREFIX + flat.length) / 8) * 8 - MESSAGE_PREFIX;
  const bytes = new Uint8Array(MESSAGE_PREFIX + metaLength);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, CONTINUATION, true);
  view.setInt32(4, metaLength, true);
  bytes.set(flat, MESSAGE_PREFIX);
  shiftPositions(table, MESSAGE_PREFIX);
  return { bytes, bodyLengthAt: (bodyLengthField.at ?? 0) + MESSAGE_PREFIX };
}

/** Makes the positions recorded while building relative to the encapsulated message. */
function shiftPositions(table: FbTable, by: number): void {
  for (const f of table.fields) {
    if (f === undefined) continue;
    if (f.kind === 'table') shiftPositions(f, by);
    else if (f.kind === 'tables') f.items.forEach((t) => shiftPositions(t, by));
    else if (f.kind !== 'string' && f.at !== undefined) f.at += by;
  }
}
