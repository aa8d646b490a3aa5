/**
 * The fused protobuf decoder's cost alone, on one thread: the ingest bench's
 * realistic SDK export requests (agentPayloads with the ingest bench's seed,
 * through a PayloadPool: 512 spans each, distinct ids per send), each made
 * before its timing, then
 * `processExport` (body to spool payload parts, what an ingest worker does)
 * timed in CPU time (process.cpuUsage: this thread and its GC helpers).
 * Prints CPU-µs per span of each round (after a warm-up round) and their
 * median, the figure bench/README.md's "Decode cost" reports as the fused path.
 *
 *   npm run bench:fused -- [requests per round=200] [rounds=7] [templates=64]
 */
import { processExport } from '@telltale/collector';
import { agentPayloads } from './agentPayloads.js';
import { cpuUs, printRounds } from './oneThreadRounds.js';
import { PayloadPool } from './PayloadPool.js';

const perRound = Number(process.argv[2] ?? 200);
const rounds = Number(process.argv[3] ?? 7);
const templates = Number(process.argv[4] ?? 64);

const nowMs = Date.now();
const pool = new PayloadPool(agentPayloads({ templates, seed: 4, nowMs }));

function round(): number {
  let spans = 0;
  let us = 0;
  for (let i = 0; i < perRound; i++) {
    const { body, spans: expected } = pool.next();
    const t = cpuUs();
    const processed = processExport({ body, encoding: 'proto', projectId: 'bench', nowMs }, undefined);
    us += cpuUs() - t;
    if (processed.spanCount !== expected) throw new Error(`kept ${processed.spanCount} of ${expected} spans`);
    spans += processed.spanCount;
  }
  return us / spans;
}

printRounds(perRound, rounds, round);
