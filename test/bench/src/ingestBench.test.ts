import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { agentPayloads, SPANS_PER_REQUEST } from './agentPayloads.js';
import { PayloadPool } from './PayloadPool.js';
import { renderIngestReport } from './renderIngestReport.js';
import { ingestBenchOptions, runIngestBench, SERVER_CLI, STORE_CHILD } from './runIngestBench.js';

describe('the ingest bench payloads', () => {
  it('makes every send distinct: trace, span and run ids rewritten, the protobuf still decodable', async () => {
    const { decodeTraceRequestProto } = await import('@telltale/collector');
    const pool = new PayloadPool(agentPayloads({ templates: 2, seed: 1 }));
    const seen = { traces: new Set<string>(), spans: new Set<string>(), runs: new Set<string>() };
    for (let i = 0; i < 4; i++) {
      const { body, spans } = pool.next();
      expect(spans).toBe(SPANS_PER_REQUEST);
      const request = decodeTraceRequestProto(body);
      const all = request.resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((ss) => ss.spans));
      expect(all).toHaveLength(SPANS_PER_REQUEST);
      const ids = new Set(all.map((s) => s.spanId));
      for (const s of all) {
        seen.traces.add(s.traceId);
        seen.spans.add(`${s.traceId}/${s.spanId}`);
        const runId = s.attributes.find((a) => a.key === 'telltale.run.id')?.value;
        seen.runs.add(JSON.stringify(runId));
        // parents were rewritten with their children: the tree holds
        if (s.parentSpanId !== '') expect(ids.has(s.parentSpanId)).toBe(true);
      }
    }
    expect(seen.spans.size).toBe(4 * SPANS_PER_REQUEST);
    expect(seen.runs.size).toBe(seen.traces.size);
  });
});

// The smoke mode against the real server: checks the bench code and that
// what was acknowledged is stored exactly once. No speed assertions: timed
// unit tests flake on shared machines. Needs the build (the server's and this
// package's dist: the chDB child always runs compiled).
describe.skipIf(!existsSync(SERVER_CLI) || !existsSync(STORE_CHILD))('the ingest bench (smoke mode)', () => {
  it('stores every acknowledged span exactly once', { timeout: 300_000 }, async () => {
    const report = await runIngestBench({ ...ingestBenchOptions({ smoke: true }), command: 'vitest smoke' });
    expect(report.load.otherFailures).toEqual([]);
    expect(report.load.ackedSpans).toBeGreaterThan(0);
    expect(report.stored.count).toBe(report.load.ackedSpans);
    expect(report.stored.unique).toBe(report.stored.count);
    expect(report.stored.runs).toBe(report.load.ackedRuns);
    expect(report.correct).toBe(true);
    expect(report.server.exitCode).toBe(0);
    expect(report.ceiling?.storedRows).toBe(report.ceiling?.rows);
    expect(renderIngestReport(report)).toContain('no loss, no duplicates');
    expect(report.sustainedSpansPerS).toBe(Math.min(report.ackedSpansPerS, report.windowDrainSpansPerS));
    expect(report.targets.map((t) => t.name)).toContain('sustained spans/s (acknowledged and stored in the window)');
  });
});
