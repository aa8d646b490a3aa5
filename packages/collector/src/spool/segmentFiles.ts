import { open, readdir, readFile, type FileHandle } from 'node:fs/promises';
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

/** Vectors per writev call, under every platform's IOV_MAX. */
const MAX_VECTORS = 512;

/** Writes every byte of `parts` at `position`, continuing after short writes. */
export async function writeAll(handle: FileHandle, parts: readonly Uint8Array[], position: number): Promise<void> {
  let queue = parts.filter((p) => p.byteLength > 0);
  while (queue.length > 0) {
    const vectors = queue.slice(0, MAX_VECTORS);
    const want = vectors.reduce((n, p) => n + p.byteLength, 0);
    const { bytesWritten } = await handle.writev(vectors, position);
    if (bytesWritten === 0 && want > 0)
      throw Object.assign(new Error('no bytes written (device full?)'), { code: 'ENOSPC' });
    position += bytesWritten;
    let skip = bytesWritten;
    let i = 0;
    while (i < queue.length && skip >= queue[i]!.byteLength) skip -= queue[i++]!.byteLength;
    queue = queue.slice(i);
    if (skip > 0) queue[0] = queue[0]!.subarray(skip);
  }
}
