/**
 * What content costs per span on one thread, lean against `contentBytes` of
 * content on every llm span (agentPayloads): the ingest worker's
 * `processExport` (decode, normalise, encode the spool payload), and the
 * drainer's share on the main thread (decodeExportPayload of the spooled
 * payloads). Prints µs per span (best of 5 rounds, after a warm-up) for
 * both, and the extra µs per llm span that content adds.
 *
 *   node test/bench/dist/contentCostBench.js [rounds=20] [contentBytes=2048]
 */
import { decodeExportPayload, processExport } from '@telltale/collector';
import { agentPayloads } from './agentPayloads.js';

const rounds = Number(process.argv[2] ?? 20);
const contentBytes = Number(process.argv[3] ?? 2048);
const nowMs = Date.now();

interface Costs {
  workerUsPerSpan: number;
  drainUsPerSpan: number;
  spans: number;
  contentRows: number;
  payloadBytes: number;
}

function measure(bytes: number): Costs {
  const bodies = agentPayloads({ templates: 8, seed: 7, nowMs, contentBytes: bytes }).map((t) => t.body);
  const job = (body: Uint8Array) => ({ body, encoding: 'proto' as const, projectId: 'bench', nowMs });
  const first = bodies.map((b) => processExport(job(b), undefined));
  const spans = first.reduce((n, p) => n + p.spanCount, 0);
  const contentRows = first.reduce((n, p) => n + p.content.kept, 0);
  const payloads = first.map((p) => Buffer.concat(p.parts));
  const payloadBytes = payloads.reduce((n, p) => n + p.length, 0);
  const best = (f: () => void): number => {
    const samples: number[] = [];
    f();
    for (let s = 0; s < 5; s++) {
      const t = performance.now();
      for (let i = 0; i < rounds; i++) f();
      samples.push(((performance.now() - t) * 1000) / (rounds * spans));
    }
    return Math.min(...samples);
  };
  const workerUsPerSpan = best(() => {
    for (const b of bodies) processExport(job(b), undefined);
  });
  const drainUsPerSpan = best(() => {
    let n = 0;
    for (const p of payloads) n += decodeExportPayload(p).message.length;
    if (n === 0) throw new Error('no messages');
  });
  return { workerUsPerSpan, drainUsPerSpan, spans, contentRows, payloadBytes };
}

const lean = measure(0);
const content = measure(contentBytes);
const perLlm = (a: number, b: number): number => ((b - a) * content.spans) / Math.max(1, content.contentRows);
console.log(
  JSON.stringify(
    {
      contentBytes,
      rounds,
      lean,
      content,
      extraWorkerUsPerContentSpan: Number(perLlm(lean.workerUsPerSpan, content.workerUsPerSpan).toFixed(2)),
      extraDrainUsPerContentSpan: Number(perLlm(lean.drainUsPerSpan, content.drainUsPerSpan).toFixed(2)),
    },
    null,
    2,
  ),
);
