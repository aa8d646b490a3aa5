import { crc32 } from 'node:zlib';

/**
 * One spool record on disk: a header, then the payload. Little-endian.
 *
 *   "TTS2" (current): magic u32 · payload length u32 · CRC-32 of the payload u32 · weight u32 · version u32   (20 bytes)
 *   "TTS1" (older):   magic u32 · payload length u32 · CRC-32 of the payload u32 · weight u32                 (16 bytes)
 *
 * The weight is the caller's unit of batch size (spans), kept in the header
 * so a drainer can size batches without reading payloads. The version is the
 * format of the payload (for the collector: the spans Arrow schema version),
 * so a payload written by another build is recognised before it is stored.
 * It is outside the checksum on purpose: a damaged version makes the record
 * refused (kept on disk), never cut as a torn tail. Both forms are read, so a
 * spool written by a build before versioned records still drains; records are
 * never rewritten, so byte offsets (the drain checkpoint's) stay valid.
 *
 * A record whose magic, length or checksum does not hold marks the end of a
 * segment's valid data: what follows it was never acknowledged.
 */
export const RECORD_MAGIC = 0x32_53_54_54; // "TTS2"
export const RECORD_HEADER_BYTES = 20;
/** The header of records written before versioned records ("TTS1", 16 bytes). */
export const UNVERSIONED_RECORD_MAGIC = 0x31_53_54_54;
export const UNVERSIONED_RECORD_HEADER_BYTES = 16;
/**
 * The version an unversioned ("TTS1") record is read as. Builds before
 * versioned records wrote spans Arrow schema version 1, the only version that
 * existed until then, so their records are version 1.
 */
export const UNVERSIONED_RECORD_VERSION = 1;
/** The largest payload a record may carry (the header's length is a u32; we stay far below). */
export const MAX_RECORD_PAYLOAD_BYTES = 1 << 30;

export interface RecordHeader {
  /** This header's own size (20, or 16 for an unversioned record). */
  headerBytes: number;
  payloadBytes: number;
  crc: number;
  weight: number;
  version: number;
}

const u32 = (n: number): boolean => Number.isInteger(n) && n >= 0 && n <= 0xffff_ffff;

/** The header for a payload made of these parts (checksummed as one), of payload format `version`. */
export function encodeRecordHeader(parts: readonly Uint8Array[], weight: number, version: number): Buffer {
  let crc = 0;
  let length = 0;
  for (const part of parts) {
    // an empty part adds nothing; skipped, since zlib's crc32 answers 0 for an empty view received from another thread
    if (part.byteLength === 0) continue;
    crc = crc32(part, crc);
    length += part.byteLength;
  }
  // invariants: callers pass bounded sizes (the body limit), counts and versions; plain Errors, never a user's error
  if (length > MAX_RECORD_PAYLOAD_BYTES)
    throw new RangeError(`spool record of ${length} bytes exceeds ${MAX_RECORD_PAYLOAD_BYTES}`);
  if (!u32(weight)) throw new RangeError(`spool record weight must be a u32, got ${weight}`);
  if (!u32(version)) throw new RangeError(`spool record version must be a u32, got ${version}`);
  const header = Buffer.allocUnsafe(RECORD_HEADER_BYTES);
  header.writeUInt32LE(RECORD_MAGIC, 0);
  header.writeUInt32LE(length, 4);
  header.writeUInt32LE(crc, 8);
  header.writeUInt32LE(weight, 12);
  header.writeUInt32LE(version, 16);
  return header;
}

/**
 * The header at `offset` (either form), or undefined when the bytes there are
 * not a record header. `buf` may end after the header's first 16 bytes only
 * when that is all the file has.
 */
export function decodeRecordHeader(buf: Buffer, offset: number): RecordHeader | undefined {
  if (offset + UNVERSIONED_RECORD_HEADER_BYTES > buf.length) return undefined;
  const magic = buf.readUInt32LE(offset);
  const payloadBytes = buf.readUInt32LE(offset + 4);
  if (payloadBytes > MAX_RECORD_PAYLOAD_BYTES) return undefined;
  const crc = buf.readUInt32LE(offset + 8);
  const weight = buf.readUInt32LE(offset + 12);
  if (magic === UNVERSIONED_RECORD_MAGIC)
    return {
      headerBytes: UNVERSIONED_RECORD_HEADER_BYTES,
      payloadBytes,
      crc,
      weight,
      version: UNVERSIONED_RECORD_VERSION,
    };
  if (magic !== RECORD_MAGIC || offset + RECORD_HEADER_BYTES > buf.length) return undefined;
  return { headerBytes: RECORD_HEADER_BYTES, payloadBytes, crc, weight, version: buf.readUInt32LE(offset + 16) };
}

export function payloadChecksumHolds(payload: Uint8Array, header: RecordHeader): boolean {
  return payload.byteLength === header.payloadBytes && crc32(payload) === header.crc;
}
