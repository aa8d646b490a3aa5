/**
 * The normaliser's cost alone, on one thread: realistic SDK export requests
 * (agentPayloads, 512 spans each), decoded once, then `normaliseRequest`
 * timed over many rounds. Prints µs per span (best of 5 rounds, after a
 * warm-up), the figure bench/README.md's "Decode cost" reports as normalise.
 * With `interop`, the requests are the recorded Vercel AI SDK /
 * OpenInference / OpenLLMetry / GenAI payloads of test/fixtures/interop
 * instead (other conventions; small requests, so more per-request cost).
 *
 *   node test/bench/dist/normaliseBench.js [rounds=200] [interop]
 */
import { readdirSync, readFileSync } from 'node:fs';
import { decodeTraceRequestJson, decodeTraceRequestProto, normaliseRequest } from '@telltale/collector';
import type { OtlpTraceRequest } from '@telltale/collector';
import { agentPayloads } from './agentPayloads.js';

const rounds = Number(process.argv[2] ?? 200);
const interop = process.argv[3] === 'interop';
const FIXTURES = new URL('../../fixtures/interop/', import.meta.url);

function interopRequests(): { requests: OtlpTraceRequest[]; nowMs: number } {
  const requests = readdirSync(FIXTURES)
    .filter((f) => f.endsWith('.json'))
    .flatMap((f) =>
      (JSON.parse(readFileSync(new URL(f, FIXTURES), 'utf8')) as { requests: unknown[] }).requests.map((r) =>
        decodeTraceRequestJson(JSON.stringify(r)),
      ),
    );
  let latest = 0n;
  for (const r of requests)
    for (const rs of r.resourceSpans)
      for (const ss of rs.scopeSpans)
        for (const sp of ss.spans) if (sp.startTimeUnixNano > latest) latest = sp.startTimeUnixNano;
  return { requests, nowMs: Number(latest / 1_000_000n) + 60_000 };
}

const source = interop ? interopRequests() : { requests: [] as OtlpTraceRequest[], nowMs: Date.now() };
const nowMs = source.nowMs;
const requests = interop
  ? source.requests
  : agentPayloads({ templates: 8, seed: 7, nowMs }).map((t) => decodeTraceRequestProto(t.body));
const spansPerRound = requests.reduce(
  (n, r) => n + r.resourceSpans.reduce((m, rs) => m + rs.scopeSpans.reduce((k, ss) => k + ss.spans.length, 0), 0),
  0,
);

function round(): number {
  const t = performance.now();
  let kept = 0;
  for (let i = 0; i < rounds; i++)
    for (const r of requests) kept += normaliseRequest(r, 'bench', { nowMs }).spans.length;
  if (kept !== rounds * spansPerRound) throw new Error(`normalised ${kept} of ${rounds * spansPerRound} spans`);
  return ((performance.now() - t) * 1000) / (rounds * spansPerRound);
}

round();
const samples = Array.from({ length: 5 }, round).sort((a, b) => a - b);
console.log(
  JSON.stringify({
    payloads: interop ? 'interop fixtures' : 'SDK',
    spansPerRound,
    rounds,
    bestUsPerSpan: Number(samples[0]!.toFixed(3)),
    medianUsPerSpan: Number(samples[2]!.toFixed(3)),
  }),
);
