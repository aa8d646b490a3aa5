import { open, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { decodeRecordHeader, payloadChecksumHolds } from './recordFormat.js';

/** Where a record sits in its segment file. */
export interface RecordRef {
  /** Byte offset of the record's header. */
  offset: number;
  /** Header and payload. */
  bytes: number;
  weight: number;
  /** The payload's format (see recordFormat.ts). */
  version: number;
  /** When this process appended it (absent: found on disk at open). */
  atMs?: number;
}

const SEGMENT_PATTERN = /^seg-(\d{12})\.log$/;

export function segmentPath(dir: string, seq: number): string {
  return join(dir, `seg-${String(seq).padStart(12, '0')}.log`);
}

/** The segment sequence numbers present in `dir`, oldest first. */
export async function listSegments(dir: string): Promise<number[]> {
  const seqs: number[] = [];
  for (const name of await readdir(dir)) {
    const match = SEGMENT_PATTERN.exec(name);
    if (match !== null) seqs.push(Number(match[1]));
  }
  return seqs.sort((a, b) => a - b);
}

/**
 * Reads a segment and returns its valid records: scanning stops at the first
 * header or checksum that does not hold (a write torn by a crash, or a write
 * that failed half way), and `validBytes` is where that happened.
 */
export async function scanSegment(
  path: string,
): Promise<{ records: RecordRef[]; validBytes: number; fileBytes: number }> {
  const buf = await readFile(path);
  const records: RecordRef[] = [];
  let offset = 0;
  for (;;) {
    const header = decodeRecordHeader(buf, offset);
    if (header === undefined) break;
    const start = offset + header.headerBytes;
    const end = start + header.payloadBytes;
    if (end > buf.length || !payloadChecksumHolds(buf.subarray(start, end), header)) break;
    records.push({ offset, bytes: end - offset, weight: header.weight, version: header.version });
    offset = end;
  }
  return { records, validBytes: offset, fileBytes: buf.length };
}

/** Makes a new or renamed directory entry durable. */
export async function fsyncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
