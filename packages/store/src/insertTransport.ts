import { randomUUID } from 'node:crypto';
import { mkdir, open, readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { ClickHouseClient } from '@clickhouse/client';
import { TelltaleError, TelltaleErrorCode } from '@telltale/semconv';

/**
 * How an insert's data reaches the engine: a staging file the engine reads
 * with `FROM INFILE` (embedded chDB), or the request body (remote).
 *
 * Embedded chDB cannot take binary data inline (it ends at the first blank
 * line), and text inline in the statement costs it about twice what the
 * same text read from a file does (measured on run-fact rows: 0.95 against
 * 0.52 CPU-µs per span), so every embedded insert of more than a few rows
 * goes through a file in the data directory's staging directory.
 */
export type InsertTransport = { kind: 'file'; dir: string } | { kind: 'body' };

/** The staging directory's name inside an embedded data directory. */
export const STAGING_DIR = 'staging';
const STAGING_PREFIX = 'telltale-';

/**
 * Creates the staging directory, or removes the staging files a process that
 * died mid-insert left in it (call it only while holding the data directory:
 * another process's insert may be reading its file).
 */
export async function emptyStagingDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  for (const name of await readdir(dir)) {
    if (name.startsWith(STAGING_PREFIX)) await unlink(join(dir, name)).catch(() => undefined);
  }
}

/** A ClickHouse string literal. */
export function quote(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** Parts below this size are gathered (copied) and written together; larger ones are written as they are. */
const GATHER_BELOW_BYTES = 64 * 1024;
/** Bytes gathered before a write: thousands of small parts take a few calls, not a call each. */
const GATHER_BYTES = 1024 * 1024;

/**
 * Writes the parts in order. It is done with each part before it takes the
 * next (its source may then reuse the memory: the spool's drain reads record
 * after record into one buffer): a small part is copied into a buffer
 * gathered for one write, a large one written at once, so thousands of
 * small parts (fact rows) still take a write per mebibyte, not one each.
 */
async function writeParts(path: string, parts: AsyncIterable<Uint8Array> | Iterable<Uint8Array>): Promise<void> {
  const file = await open(path, 'w');
  let gather: Buffer | undefined;
  let gathered = 0;
  const write = async (bytes: Uint8Array): Promise<void> => {
    let written = 0;
    while (written < bytes.byteLength) {
      const { bytesWritten } = await file.write(bytes, written, bytes.byteLength - written);
      if (bytesWritten === 0)
        throw new TelltaleError({
          code: TelltaleErrorCode.STORAGE,
          message: `short write to ${path}: ${written} of ${bytes.byteLength} bytes`,
        });
      written += bytesWritten;
    }
  };
  const flush = async (): Promise<void> => {
    if (gather === undefined || gathered === 0) return;
    await write(gather.subarray(0, gathered));
    gathered = 0;
  };
  try {
    for await (const part of parts) {
      if (part.byteLength >= GATHER_BELOW_BYTES) {
        await flush();
        await write(part);
        continue;
      }
      gather ??= Buffer.allocUnsafe(GATHER_BYTES);
      if (gathered + part.byteLength > GATHER_BYTES) await flush();
      gather.set(part, gathered);
      gathered += part.byteLength;
    }
    await flush();
  } finally {
    await file.close();
  }
}

/**
 * How the engine reads a staging file. Its default for local files maps
 * them, and a mapped file's pages count in the process's resident memory
 * for as long as the insert reads them: a drain batch's file is about
 * 70 MiB. Read calls into the engine's own small buffer cost no more CPU.
 */
const READ_STAGED = "storage_file_read_method = 'pread'";

/**
 * `INSERT INTO t (…) FROM INFILE 'staged' SETTINGS … FORMAT format`: writes
 * `parts` to a staging file in `dir`, inserts it, and removes it whether or
 * not the insert worked. `head` is `INSERT INTO t (columns)`; `settings`
 * the SETTINGS clause's items, if any.
 */
export async function insertStagedFile(
  client: ClickHouseClient,
  dir: string,
  head: string,
  format: string,
  parts: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  settings = '',
): Promise<void> {
  const path = join(dir, `${STAGING_PREFIX}${randomUUID()}.${format.toLowerCase()}`);
  try {
    await writeParts(path, parts);
    await client.command({
      query: `${head} FROM INFILE ${quote(path)} SETTINGS ${settings === '' ? READ_STAGED : `${settings}, ${READ_STAGED}`} FORMAT ${format}`,
    });
  } finally {
    await unlink(path).catch(() => undefined);
  }
}
