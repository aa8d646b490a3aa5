import { getHeapStatistics } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import { toTelltaleError } from '@telltale/semconv';
import { requestFactBuffers } from '@telltale/store/encode';
import type { SpanLimits } from '../normalise/spanLimits.js';
import { jobFacts } from './jobFacts.js';
import { movableBuffers } from './movableBuffers.js';
import { processExport, type ExportJob } from './processExport.js';
import { SpareCopies } from './SpareCopies.js';
import { BodyJoiner } from './BodyJoiner.js';
import type { WorkerFacts, WorkerReply } from './workerProtocol.js';

/**
 * Requests whose run facts wait, at most, for a moment when no request does
 * (each holds a copy of its spans message, about 600 KiB): past it, the
 * oldest are computed at once, before the next request, and never dropped.
 * Reading back a run's spans costs the SQL finaliser about three times what
 * computing its facts here does.
 */
const MAX_DEFERRED_FACTS = 8;
const deferredFacts: Array<() => void> = [];
let factsScheduled = false;
/**
 * The buffers of those copies, reused: one per request that can wait, and
 * the one being computed. A spans message above 4 MiB (about 3,800 spans;
 * exporters send 512 at a time by default) gets a buffer of its own, so
 * what the worker keeps stays under 36 MiB.
 */
const copies = new SpareCopies(MAX_DEFERRED_FACTS + 1, 4 << 20);

/**
 * Bodies that come in pieces are joined into one buffer kept for the next
 * (bodies above 16 MiB get their own): a worker decodes one at a time.
 */
const bodies = new BodyJoiner(16 << 20);

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
    const result = processExport(msg.job, limits, (body) => bodies.join(body));
    if (key !== undefined) deferFacts(key, result.projectId, result.parts.at(-1));
    const ms = performance.now() - started;
    reply = { id: msg.id, ok: true, result, ms, heapBytes: getHeapStatistics().total_physical_size };
    // the parts and the loop signals' steps are moved, not copied
    transfer = movableBuffers([...result.parts, result.loops.steps]);
  } catch (err) {
    const e = toTelltaleError(err);
    reply = { id: msg.id, ok: false, code: e.code, message: e.message };
    if (key !== undefined) sendFacts(jobFacts(key, msg.job.projectId, undefined));
  }
  try {
    port.postMessage(reply, transfer);
  } catch {
    // a buffer Node would not move after all: copy instead
    port.postMessage(reply);
  }
  while (deferredFacts.length > MAX_DEFERRED_FACTS) deferredFacts.shift()!();
  scheduleFacts();
});

/**
 * Queues a request's run facts, computed from a copy of its spans message
 * (the reply moves the original to the main thread) once no request waits.
 */
function deferFacts(factsKey: string, projectId: string, spans: Uint8Array | undefined): void {
  if (spans === undefined) {
    sendFacts(jobFacts(factsKey, projectId, undefined));
    return;
  }
  const copy = copies.copy(spans);
  deferredFacts.push(() => {
    // the facts keep nothing of the copy (their rows are buffers of their own), so it is free once they are computed
    const facts = jobFacts(factsKey, projectId, copy);
    copies.release(copy);
    sendFacts(facts);
  });
}

/** Computes the oldest deferred facts after the messages already here, one per turn of the event loop. */
function scheduleFacts(): void {
  if (factsScheduled || deferredFacts.length === 0) return;
  factsScheduled = true;
  setImmediate(() => {
    factsScheduled = false;
    deferredFacts.shift()?.();
    scheduleFacts();
  });
}

/** Sends a job's facts, moving their buffers to the main thread rather than copying them. */
function sendFacts(facts: WorkerFacts): void {
  port?.postMessage({ facts }, requestFactBuffers(facts));
}
