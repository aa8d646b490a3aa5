/**
 * What content costs per span on one thread, lean against `contentBytes` of
 * content on every llm span (agentPayloads): the ingest worker's
 * `processExport` (decode, normalise, encode the spool payload), and the
 * drainer's share on the main thread (decodeExportPayload of the spooled
 * payloads). Prints CPU-µs per span of the process (best of 7 samples,
 * lean and content alternated so load on a shared machine hits both alike)
 * for both, and the extra CPU-µs per llm span that content adds.
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

/** CPU-µs (user + system, every thread of the process) per call of `f`, divided by `per`. */
function cpuUs(f: () => void, per: number): number {
  const start = process.cpuUsage();
  for (let i = 0; i < rounds; i++) f();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / (rounds * per);
}

function prepare(bytes: number) {
  const bodies = agentPayloads({ templates: 8, seed: 7, nowMs, contentBytes: bytes }).map((t) => t.body);
  const job = (body: Uint8Array) => ({ body, encoding: 'proto' as const, projectId: 'bench', nowMs });
  const first = bodies.map((b) => processExport(job(b), undefined));
  const spans = first.reduce((n, p) => n + p.spanCount, 0);
  const contentRows = first.reduce((n, p) => n + p.content.kept, 0);
  const payloads = first.map((p) => Buffer.concat(p.parts));
  const payloadBytes = payloads.reduce((n, p) => n + p.length, 0);
  const worker = (): void => {
    for (const b of bodies) processExport(job(b), undefined);
  };
  const drain = (): void => {
    let n = 0;
    for (const p of payloads) n += decodeExportPayload(p).message.length;
    if (n === 0) throw new Error('no messages');
  };
  return { spans, contentRows, payloadBytes, worker, drain };
}

function measureBoth(): [Costs, Costs] {
  const cases = [prepare(0), prepare(contentBytes)];
  const best = cases.map(() => ({ worker: Infinity, drain: Infinity }));
  for (let s = 0; s < 8; s++)
    cases.forEach((c, i) => {
      const w = cpuUs(c.worker, c.spans);
      const d = cpuUs(c.drain, c.spans);
      // the first sample warms up
      if (s > 0) best[i] = { worker: Math.min(best[i]!.worker, w), drain: Math.min(best[i]!.drain, d) };
    });
  return cases.map((c, i) => ({
    workerUsPerSpan: Number(best[i]!.worker.toFixed(2)),
    drainUsPerSpan: Number(best[i]!.drain.toFixed(3)),
    spans: c.spans,
    contentRows: c.contentRows,
    payloadBytes: c.payloadBytes,
  })) as [Costs, Costs];
}

const [lean, content] = measureBoth();
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
