/**
 * What live loop detection costs per span on its way from an ingest worker
 * to the main thread: `loopSignalsOf` over a request's spans (the worker),
 * the signals posted through a MessagePort as the worker's reply carries
 * them (their buffers moved, as the worker does) and received (the main
 * thread), then `LiveLoopDetector.observe`. The ingest bench's requests
 * (agentPayloads, 512 spans, distinct ids per send), decoded beforehand;
 * one thread, CPU time (process.cpuUsage). Prints CPU-µs per span of each
 * round (after a warm-up round) and their median.
 *
 * Those requests hold whole runs, which end in them. With `open`, their
 * run spans are left out, so the runs stay followed (up to the detector's
 * 50,000), as runs that span many requests are.
 *
 *   npm run bench:loop-signals -- [requests per round=200] [rounds=9] [open]
 */
import { receiveMessageOnPort, MessageChannel } from 'node:worker_threads';
import { decodeTraceRequestProto, LiveLoopDetector, loopSignalsOf, normaliseRequest } from '@telltale/collector';
import type { LoopSignals } from '@telltale/collector';
import { agentPayloads } from './agentPayloads.js';
import { cpuUs, printRounds } from './oneThreadRounds.js';
import { PayloadPool } from './PayloadPool.js';

const perRound = Number(process.argv[2] ?? 200);
const rounds = Number(process.argv[3] ?? 9);
const open = process.argv[4] === 'open';

const nowMs = Date.now();
const pool = new PayloadPool(agentPayloads({ templates: 64, seed: 4, nowMs }));
const { port1, port2 } = new MessageChannel();
let fired = 0;
const detector = new LiveLoopDetector({ onEvent: () => fired++ });

/** The buffers a reply moves rather than copies: those of typed arrays in the signals. */
function moved(signals: LoopSignals): ArrayBuffer[] {
  return Object.values(signals)
    .filter((v): v is Float64Array => ArrayBuffer.isView(v))
    .map((v) => v.buffer as ArrayBuffer)
    .filter((b) => b.byteLength > 0);
}

printRounds(perRound, rounds, () => {
  let spans = 0;
  let us = 0;
  for (let i = 0; i < perRound; i++) {
    const all = normaliseRequest(decodeTraceRequestProto(pool.next().body), 'bench', { nowMs }).spans;
    const records = open ? all.filter((s) => s.stepKind !== 'run') : all;
    const t = cpuUs();
    const signals = loopSignalsOf('bench', records);
    port1.postMessage(signals, moved(signals));
    const received = receiveMessageOnPort(port2)?.message as LoopSignals | undefined;
    if (received === undefined) throw new Error('the signals did not arrive');
    detector.observe(received);
    us += cpuUs() - t;
    spans += records.length;
  }
  return us / spans;
});
port1.close();
console.error(`runs followed: ${detector.size}, loops fired: ${fired}`);
