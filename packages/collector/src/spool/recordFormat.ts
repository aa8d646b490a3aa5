import { crc32 } from 'node:zlib';

/**
 * One spool record on disk: a 16-byte header, then the payload.
 *
 *   magic u32 · payload length u32 · CRC-32 of the payload u32 · weight u32
 *
 * Little-endian. The weight is the caller's unit of batch size (spans), kept
 * in the header so a drainer can size batches without reading payloads. A
 * record whose magic, length or checksum does not hold marks the end of a
 * segment's valid data: what follows it was never acknowledged.
 */
export const RECORD_MAGIC = 0x31_53_54_54; // "TTS1"
export const RECORD_HEADER_BYTES = 16;
/** The largest payload a record may carry (the header's length is a u32; we stay far below). */
export const MAX_RECORD_PAYLOAD_BYTES = 1 << 30;

export interface RecordHeader {
  payloadBytes: number;
  crc: number;
  weight: number;
}

/** The header for a payload made of these parts (checksummed as one). */
export function encodeRecordHeader(parts: readonly Uint8Array[], weight: number): Buffer {
  let crc = 0;
  let length = 0;
  for (const part of parts) {
    crc = crc32(part, crc);
    length += part.byteLength;
  }
  if (length > MAX_RECORD_PAYLOAD_BYTES) throw new RangeError(`spool record of ${length} bytes exceeds ${MAX_RECORD_PAYLOAD_BYTES}`);
  if (!Number.isInteger(weight) || weight < 0 || weight > 0xffff_ffff) throw new RangeError(`spool record weight must be a u32, got ${weight}`);
  const header = Buffer.allocUnsafe(RECORD_HEADER_BYTES);
  header.writeUInt32LE(RECORD_MAGIC, 0);
  header.writeUInt32LE(length, 4);
  header.writeUInt32LE(crc, 8);
  header.writeUInt32LE(weight, 12);
  return header;
}

/** The header at `offset`, or undefined when the bytes there are not a record header. */
export function decodeRecordHeader(buf: Buffer, offset: number): RecordHeader | undefined {
  if (offset + RECORD_HEADER_BYTES > buf.length) return undefined;
  if (buf.readUInt32LE(offset) !== RECORD_MAGIC) return undefined;
  const payloadBytes = buf.readUInt32LE(offset + 4);
  if (payloadBytes > MAX_RECORD_PAYLOAD_BYTES) return undefined;
  return { payloadBytes, crc: buf.readUInt32LE(offset + 8), weight: buf.readUInt32LE(offset + 12) };
}

export function payloadChecksumHolds(payload: Uint8Array, header: RecordHeader): boolean {
  return payload.byteLength === header.payloadBytes && crc32(payload) === header.crc;
}
