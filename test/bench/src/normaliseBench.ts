/**
 * The normaliser's cost alone, on one thread: realistic SDK export requests
 * (agentPayloads, 512 spans each), decoded once, then `normaliseRequest`
 * timed over many rounds. Prints µs per span (best of 5 rounds, after a
 * warm-up), the figure bench/README.md's "Decode cost" reports as normalise.
 *
 *   node test/bench/dist/normaliseBench.js [rounds=200]
 */
import { decodeTraceRequestProto, normaliseRequest } from '@telltale/collector';
import { agentPayloads } from './agentPayloads.js';

const rounds = Number(process.argv[2] ?? 200);
const nowMs = Date.now();
const requests = agentPayloads({ templates: 8, seed: 7, nowMs }).map((t) => decodeTraceRequestProto(t.body));
const spansPerRound = requests.reduce((n, r) => n + r.resourceSpans.reduce((m, rs) => m + rs.scopeSpans.reduce((k, ss) => k + ss.spans.length, 0), 0), 0);

function round(): number {
  const t = performance.now();
  let kept = 0;
  for (let i = 0; i < rounds; i++) for (const r of requests) kept += normaliseRequest(r, 'bench', { nowMs }).spans.length;
  if (kept !== rounds * spansPerRound) throw new Error(`normalised ${kept} of ${rounds * spansPerRound} spans`);
  return ((performance.now() - t) * 1000) / (rounds * spansPerRound);
}

round();
const samples = Array.from({ length: 5 }, round).sort((a, b) => a - b);
console.log(JSON.stringify({ spansPerRound, rounds, bestUsPerSpan: Number(samples[0]!.toFixed(3)), medianUsPerSpan: Number(samples[2]!.toFixed(3)) }));
