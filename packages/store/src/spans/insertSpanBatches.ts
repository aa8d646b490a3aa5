import { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { ClickHouseClient } from '@clickhouse/client';
import { SPANS_ARROW_COLUMNS, SPANS_ARROW_SCHEMA_MESSAGE } from './arrow/spansArrowSchema.js';
import { END_OF_STREAM } from './arrow/ipcMessage.js';
import { TelltaleError, TelltaleErrorCode } from '@telltale/semconv';
import { insertStagedFile, quote, type InsertTransport } from '../insertTransport.js';

/** Dedup tokens go into SQL text (INFILE takes no query parameters): only this charset, which needs no escaping. */
const TOKEN = /^[A-Za-z0-9_.:/+=-]{1,256}$/;

/** Where an ArrowStream goes: the statement's head and the schema message the stream starts with. */
export interface ArrowInsertTarget {
  /** `INSERT INTO table (columns)`. */
  insert: string;
  schemaMessage: Uint8Array;
}

const SPANS_TARGET: ArrowInsertTarget = {
  insert: `INSERT INTO spans (${SPANS_ARROW_COLUMNS.join(', ')})`,
  schemaMessage: SPANS_ARROW_SCHEMA_MESSAGE,
};

/**
 * Record batch messages, in memory or read as the insert goes (a spool
 * range, a record at a time). An insert is done with each message before it
 * takes the next, so a source may reuse a message's memory for the next.
 */
export type SpanBatchMessages = Iterable<Uint8Array> | AsyncIterable<Uint8Array>;

/** The ArrowStream of `first` then `rest`: schema message, the messages, end-of-stream marker. */
async function* arrowStream(
  schema: Uint8Array,
  first: Uint8Array,
  rest: AsyncIterator<Uint8Array> | Iterator<Uint8Array>,
): AsyncGenerator<Uint8Array> {
  yield schema;
  yield first;
  for (let next = await rest.next(); next.done !== true; next = await rest.next()) yield next.value;
  yield END_OF_STREAM;
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
 * blank line), so the stream goes through a staging file read with FROM
 * INFILE and removed afterwards, whether or not the insert worked.
 *
 * `messages` may be read as the insert goes (an async iterable): only the
 * message being written is in memory, whatever the batch's size. Each is
 * written out (to the staging file) or copied (into the request body, which
 * the socket may still be sending when the next message is taken) before
 * the next is taken.
 */
export async function insertSpanBatches(
  client: ClickHouseClient,
  transport: InsertTransport,
  messages: SpanBatchMessages,
  opts: { deduplicationToken?: string } = {},
): Promise<void> {
  await insertArrowBatches(client, transport, SPANS_TARGET, messages, opts);
}

/** One ArrowStream insert of record batch messages of `target`'s schema, as insertSpanBatches describes. */
export async function insertArrowBatches(
  client: ClickHouseClient,
  transport: InsertTransport,
  target: ArrowInsertTarget,
  messages: SpanBatchMessages,
  opts: { deduplicationToken?: string } = {},
): Promise<void> {
  const head = target.insert;
  const token = opts.deduplicationToken;
  if (token !== undefined && !TOKEN.test(token))
    throw new TelltaleError({
      code: TelltaleErrorCode.BAD_REQUEST,
      message: `deduplication token must match ${TOKEN.source}`,
    });
  const rest = Symbol.asyncIterator in messages ? messages[Symbol.asyncIterator]() : messages[Symbol.iterator]();
  const first = await rest.next();
  if (first.done === true) return; // nothing to store: no insert, no part
  const parts = arrowStream(target.schemaMessage, first.value, rest);

  if (transport.kind === 'body') {
    const result = await client.exec({
      query: `${head} FORMAT ArrowStream`,
      values: Readable.from(copied(parts), { objectMode: false }),
      clickhouse_settings: {
        async_insert: 0,
        optimize_on_insert: 0,
        ...(token === undefined ? {} : { insert_deduplication_token: token }),
      },
    });
    // nothing useful comes back: drain it, so the keep-alive socket is released rather than closed
    result.stream.resume();
    await finished(result.stream);
    return;
  }

  const settings = `async_insert = 0, optimize_on_insert = 0${token === undefined ? '' : `, insert_deduplication_token = ${quote(token)}`}`;
  await insertStagedFile(client, transport.dir, head, 'ArrowStream', parts, settings);
}

/** Each part copied as it is taken: the request's stream reads ahead of the socket, and a source may reuse a part's memory. */
async function* copied(parts: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  for await (const part of parts) yield Uint8Array.prototype.slice.call(part);
}
