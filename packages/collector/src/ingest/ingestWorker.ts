import { getHeapStatistics } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import { toTelltaleError } from '@telltale/semconv';
import { requestFactBuffers } from '@telltale/store/encode';
import type { SpanLimits } from '../normalise/spanLimits.js';
import { jobFacts } from './jobFacts.js';
import { processExport, type ExportJob } from './processExport.js';
import type { WorkerFacts, WorkerReply } from './workerProtocol.js';

/** A worker thread of ExportProcessor: decodes, normalises and encodes export requests off the event loop. */
const limits = (workerData as { limits?: SpanLimits }).limits;
const port = parentPort;
// invariant: only ExportProcessor starts this module, as a worker (a plain Error)
if (port === null) throw new Error('ingestWorker must run in a worker thread');

port.on('message', (msg: { id: number; job: ExportJob }) => {
  let reply: WorkerReply;
  let transfer: ArrayBuffer[] = [];
  const key = msg.job.factsKey;
  try {
    const started = performance.now();
    const result = processExport(msg.job, limits);
    // before the reply, which moves the spans message to the main thread
    if (key !== undefined) sendFacts(jobFacts(key, result.projectId, result.parts.at(-1)));
    const ms = performance.now() - started;
    reply = { id: msg.id, ok: true, result, ms, heapBytes: getHeapStatistics().total_physical_size };
    transfer = result.parts
      .map((p) => p.buffer as ArrayBuffer)
      .filter((b, i, all) => all.indexOf(b) === i && b.byteLength > 0);
  } catch (err) {
    const e = toTelltaleError(err);
    reply = { id: msg.id, ok: false, code: e.code, message: e.message };
    if (key !== undefined) sendFacts(jobFacts(key, msg.job.projectId, undefined));
  }
  try {
    port.postMessage(reply, transfer);
  } catch {
    // a part shares a buffer that cannot be transferred (a pooled Buffer): copy instead
    port.postMessage(reply);
  }
});

/** Sends a job's facts, moving their buffers to the main thread rather than copying them. */
function sendFacts(facts: WorkerFacts): void {
  port?.postMessage({ facts }, requestFactBuffers(facts));
}
