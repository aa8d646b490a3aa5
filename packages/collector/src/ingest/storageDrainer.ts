import type { Spool, SpoolBatch } from '../spool/Spool.js';
import { SpoolDrainer } from '../spool/SpoolDrainer.js';
import type {
  CollectorObservers,
  CollectorStorageOptions,
  InsertSpanBatches,
  RequestFacts,
} from './CollectorOptions.js';
import { decodeExportPayload, SPOOL_PAYLOAD_CONVERTERS } from './exportPayload.js';
import type { RequestFactsBuffer } from './RequestFactsBuffer.js';

/** How long a batch waits, in all, for run facts still being computed (past it, their runs go to SQL). */
const FACTS_WAIT_MS = 1_000;

/**
 * The spool-to-store path: the drainer hands out batches of spool records
 * (their range checkpointed in `drain.json` first), each batch becomes one
 * idempotent insert of its Arrow messages, and the spool acks it once stored.
 * A failed insert stays in the spool and is retried.
 */
export function storageDrainer(
  spool: Spool,
  storage: CollectorStorageOptions,
  observe: CollectorObservers,
  facts?: RequestFactsBuffer,
): SpoolDrainer {
  let lastInsertSeconds = 0;
  const { onBatchStored, onInsertError, onSpoolRefused } = observe;
  return new SpoolDrainer({
    spool,
    store: async (payloads, token) => {
      const started = performance.now();
      await insertPayloads(storage.insert, payloads, token, facts);
      lastInsertSeconds = (performance.now() - started) / 1000;
    },
    ...(onBatchStored === undefined
      ? {}
      : { onStored: (batch: SpoolBatch) => onBatchStored(batch.weight, lastInsertSeconds) }),
    ...(storage.maxBatchSpans === undefined ? {} : { maxBatchWeight: storage.maxBatchSpans }),
    // insert finishes with each message before taking the next (InsertSpanBatches), and content is copied out
    reusePayloads: true,
    onError: (err, _batch: SpoolBatch | undefined, attempt) => onInsertError?.(err, attempt),
    ...(storage.afterInsert === undefined ? {} : { beforeAck: storage.afterInsert }),
    // this build's own converters, and the host's on top
    converters: new Map([...SPOOL_PAYLOAD_CONVERTERS, ...(storage.converters ?? [])]),
    ...(onSpoolRefused === undefined ? {} : { onRefused: onSpoolRefused }),
  });
}

/**
 * One insert of a batch's payloads: their Arrow messages as they are read,
 * the runs they hold, the run facts their workers computed (those ready in
 * time), and their content messages. Each payload is valid only until the
 * next is read (the drain reuses the buffer), so a content message, kept
 * until the content insert, is copied out of it (a few KiB a span with
 * content); each spans message goes to the insert, which is done with it
 * before it takes the next.
 */
async function insertPayloads(
  insert: InsertSpanBatches,
  payloads: AsyncIterable<Buffer>,
  token: string,
  buffer: RequestFactsBuffer | undefined,
): Promise<void> {
  // a batch waits this long at most, in all, for run facts a worker is still computing
  const factsBy = Date.now() + FACTS_WAIT_MS;
  const runs: { projectId: string; runId: string }[] = [];
  const contents: Uint8Array[] = [];
  const facts: RequestFacts[] = [];
  async function* messages(): AsyncGenerator<Uint8Array> {
    for await (const payload of payloads) {
      const decoded = decodeExportPayload(payload);
      for (const runId of decoded.runIds) runs.push({ projectId: decoded.projectId, runId });
      const key = decoded.factsKey;
      const found = key === undefined || buffer === undefined ? undefined : await buffer.take(key, factsBy);
      if (found !== undefined) facts.push(found);
      if (decoded.content !== undefined) contents.push(Uint8Array.prototype.slice.call(decoded.content));
      yield decoded.message;
    }
  }
  await insert(messages(), runs, token, contents, facts);
}
