import { randomUUID } from 'node:crypto';
import { mkdir, open, readdir, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { ClickHouseClient } from '@clickhouse/client';
import { SPANS_ARROW_COLUMNS } from './arrow/spansArrowSchema.js';
import { spansArrowStream } from './arrow/spansArrowStream.js';

/** How an ArrowStream reaches the engine: a temp file chDB reads (embedded), or the HTTP body (remote). */
export type ArrowInsertTransport = { kind: 'file'; dir?: string } | { kind: 'body' };

/** The staging directory's name inside an embedded data directory. */
export const STAGING_DIR = 'staging';
const STAGING_PREFIX = 'telltale-spans-';
const STAGING_SUFFIX = '.arrows';

/**
 * Creates the staging directory, or removes the staging files a process that
 * died mid-insert left in it (call it only while holding the data directory:
 * another process's insert may be reading its file).
 */
export async function emptyStagingDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  for (const name of await readdir(dir)) {
    if (name.startsWith(STAGING_PREFIX) && name.endsWith(STAGING_SUFFIX)) await unlink(join(dir, name)).catch(() => undefined);
  }
}

/** Dedup tokens go into SQL text (INFILE takes no query parameters): only this charset, which needs no escaping. */
const TOKEN = /^[A-Za-z0-9_.:/+=-]{1,256}$/;

const INSERT = `INSERT INTO spans (${SPANS_ARROW_COLUMNS.join(', ')})`;

/** A ClickHouse string literal. */
function quote(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** Buffers per writev call (the usual IOV_MAX). */
const IOV_MAX = 1024;

/** Writes the parts with writev, a thousand at a time: for thousands of small messages ~5× faster than writeFile's write per part. */
async function writeParts(path: string, parts: readonly Uint8Array[]): Promise<void> {
  const file = await open(path, 'w');
  try {
    for (let i = 0; i < parts.length; i += IOV_MAX) {
      const chunk = parts.slice(i, i + IOV_MAX);
      const expected = chunk.reduce((n, p) => n + p.byteLength, 0);
      const { bytesWritten } = await file.writev(chunk);
      if (bytesWritten !== expected) throw new Error(`short write to ${path}: ${bytesWritten} of ${expected} bytes`);
    }
  } finally {
    await file.close();
  }
}

/**
 * Inserts record batch messages (encodeSpanRecordBatch) as ONE ArrowStream
 * insert — one part per partition, whatever the number of messages. Columns
 * are listed, so `ingested_at` takes its DEFAULT at insert time. With a
 * token, a repeat of the same insert is dropped by the table's
 * deduplication window (the token goes in the statement's SETTINGS clause:
 * the chDB connection would turn clickhouse_settings into a session-wide SET).
 * `async_insert = 0`: ClickHouse 25+ buffers inserts server-side by default,
 * where deduplication follows other rules; these inserts are large batches
 * already and their tokens must deduplicate as synchronous inserts do.
 * `optimize_on_insert = 0`: the ReplacingMergeTree does not collapse
 * duplicates inside the insert (20–25% of the insert's cost, measured); a
 * re-sent span still collapses on merge, as across inserts, and reads that
 * must not see duplicates use FINAL.
 *
 * Embedded chDB cannot take binary bodies inline (they end at the first
 * blank line), so the stream goes through a temp file read with FROM INFILE
 * and removed afterwards, whether or not the insert worked.
 */
export async function insertSpanBatches(
  client: ClickHouseClient,
  transport: ArrowInsertTransport,
  messages: readonly Uint8Array[],
  opts: { deduplicationToken?: string } = {},
): Promise<void> {
  if (messages.length === 0) return;
  const token = opts.deduplicationToken;
  if (token !== undefined && !TOKEN.test(token)) throw new RangeError(`deduplication token must match ${TOKEN.source}`);
  const parts = spansArrowStream(messages);

  if (transport.kind === 'body') {
    const result = await client.exec({
      query: `${INSERT} FORMAT ArrowStream`,
      values: Readable.from(parts, { objectMode: false }),
      clickhouse_settings: { async_insert: 0, optimize_on_insert: 0, ...(token === undefined ? {} : { insert_deduplication_token: token }) },
    });
    // nothing useful comes back: drain it, so the keep-alive socket is released rather than closed
    result.stream.resume();
    await finished(result.stream);
    return;
  }

  const path = join(transport.dir ?? tmpdir(), `${STAGING_PREFIX}${randomUUID()}${STAGING_SUFFIX}`);
  try {
    await writeParts(path, parts);
    const settings = ` SETTINGS async_insert = 0, optimize_on_insert = 0${token === undefined ? '' : `, insert_deduplication_token = ${quote(token)}`}`;
    await client.command({ query: `${INSERT} FROM INFILE ${quote(path)}${settings} FORMAT ArrowStream` });
  } finally {
    await unlink(path).catch(() => undefined);
  }
}
