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
 *   npm run bench:request-facts -- [requests per round=200] [rounds=7] [templates=64]
 */
import { processExport } from '@telltale/collector';
import { computeRequestFacts } from '@telltale/store/encode';
import { agentPayloads } from './agentPayloads.js';
import { cpuUs, printRounds } from './oneThreadRounds.js';
import { PayloadPool } from './PayloadPool.js';

const perRound = Number(process.argv[2] ?? 200);
const rounds = Number(process.argv[3] ?? 7);
const templates = Number(process.argv[4] ?? 64);

const nowMs = Date.now();
const pool = new PayloadPool(agentPayloads({ templates, seed: 4, nowMs }));

printRounds(perRound, rounds, () => {
  let spans = 0;
  let us = 0;
  for (let i = 0; i < perRound; i++) {
    const { body, runs: expected } = pool.next();
    const processed = processExport({ body, encoding: 'proto', projectId: 'bench', nowMs }, undefined);
    // the Arrow message is the last part (exportPayload.ts), what the worker computes the facts from
    const message = processed.parts.at(-1) ?? new Uint8Array(0);
    const t = cpuUs();
    const facts = computeRequestFacts('bench', message);
    us += cpuUs() - t;
    if (facts.runs.length !== expected) throw new Error(`facts of ${facts.runs.length} of ${expected} runs`);
    spans += processed.spanCount;
  }
  return us / spans;
});
