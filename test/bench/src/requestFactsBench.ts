/**
 * The run facts an ingest worker computes for a request, alone on one
 * thread: the ingest bench's realistic SDK export requests (agentPayloads
 * with the ingest bench's seed, through a PayloadPool: 512 spans each,
 * distinct ids per send), each decoded by `processExport` before its timing,
 * then `computeRequestFacts` on its spans Arrow message (reading the fact
 * columns, computing the facts of the runs it holds whole and writing their
 * rows) timed in CPU time (process.cpuUsage: this thread and its GC
 * helpers). Prints CPU-µs per span of each round (after a warm-up round)
 * and their median.
 *
 * With `copy`, each request is timed as an ingest worker handles it:
 * `processExport`, a copy of the spans message (the worker's reply moves
 * the original), then the facts from the copy. `fresh` makes a new buffer
 * for each copy; `spare` reuses the worker's (SpareCopies). A fresh buffer
 * costs more than its copy: the allocation and its garbage slow the
 * decoding as well.
 *
 *   npm run bench:request-facts -- [requests per round=200] [rounds=7] [templates=64] [copy=none|fresh|spare]
 */
import { processExport, SpareCopies } from '@telltale/collector';
import { computeRequestFacts } from '@telltale/store/encode';
import { agentPayloads } from './agentPayloads.js';
import { cpuUs, printRounds } from './oneThreadRounds.js';
import { PayloadPool } from './PayloadPool.js';

const perRound = Number(process.argv[2] ?? 200);
const rounds = Number(process.argv[3] ?? 7);
const templates = Number(process.argv[4] ?? 64);
const copy = process.argv[5] ?? 'none';
if (copy !== 'none' && copy !== 'fresh' && copy !== 'spare') throw new RangeError(`copy must be none, fresh or spare`);
// one copy at a time here: each is released before the next request's
const spares = new SpareCopies(1, 4 << 20);

const nowMs = Date.now();
const pool = new PayloadPool(agentPayloads({ templates, seed: 4, nowMs }));

printRounds(perRound, rounds, () => {
  let spans = 0;
  let us = 0;
  for (let i = 0; i < perRound; i++) {
    const { body, runs: expected } = pool.next();
    const started = cpuUs();
    const processed = processExport({ body, encoding: 'proto', projectId: 'bench', nowMs }, undefined);
    // the Arrow message is the last part (exportPayload.ts), what the worker computes the facts from
    const message = processed.parts.at(-1) ?? new Uint8Array(0);
    const t = copy === 'none' ? cpuUs() : started;
    let facts;
    if (copy === 'none') facts = computeRequestFacts('bench', message);
    else if (copy === 'fresh') facts = computeRequestFacts('bench', Uint8Array.prototype.slice.call(message));
    else {
      const copied = spares.copy(message);
      facts = computeRequestFacts('bench', copied);
      spares.release(copied);
    }
    us += cpuUs() - t;
    if (facts.runs.length !== expected) throw new Error(`facts of ${facts.runs.length} of ${expected} runs`);
    spans += processed.spanCount;
  }
  return us / spans;
});
