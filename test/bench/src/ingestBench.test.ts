import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { agentPayloads, SPANS_PER_REQUEST } from './agentPayloads.js';
import { PayloadPool } from './PayloadPool.js';
import { renderIngestReport } from './renderIngestReport.js';
import { runIngestRounds } from './ingestRounds.js';
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

  it('puts ~N bytes of GenAI messages on every llm span with --content-bytes, the spans otherwise as lean', async () => {
    const { decodeTraceRequestProto } = await import('@telltale/collector');
    const spansOf = (body: Uint8Array) =>
      decodeTraceRequestProto(body).resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((ss) => ss.spans));
    const nowMs = Date.now();
    const [lean] = agentPayloads({ templates: 1, seed: 3, nowMs });
    const [rich] = agentPayloads({ templates: 1, seed: 3, nowMs, contentBytes: 2048 });
    if (lean === undefined || rich === undefined) throw new Error('no templates');
    const leanSpans = spansOf(lean.body);
    const richSpans = spansOf(rich.body);
    const isLlm = (s: (typeof richSpans)[number]) =>
      s.attributes.some((a) => a.key === 'telltale.step.kind' && a.value === 'llm');
    const llm = richSpans.filter(isLlm);
    expect(llm.length).toBeGreaterThan(50);
    // every llm span makes a content row, with or without messages (its gen_ai.choice event)
    expect(rich.contentSpans).toBe(llm.length);
    expect(lean.contentSpans).toBe(0); // an empty gen_ai.choice event keeps no content row
    for (const s of llm) {
      const input = s.attributes.find((a) => a.key === 'gen_ai.input.messages')?.value;
      const output = s.attributes.find((a) => a.key === 'gen_ai.output.messages')?.value;
      if (typeof input !== 'string' || typeof output !== 'string') throw new Error('llm span without content');
      expect(input.length + output.length).toBeGreaterThan(1800);
      expect(input.length + output.length).toBeLessThan(2300);
      const messages = JSON.parse(input) as { role: string }[];
      expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool']);
    }
    // no other span carries content, and without the messages every span is the lean one
    const strip = (spans: typeof richSpans) =>
      spans.map((s) => ({
        name: s.name,
        start: String(s.startTimeUnixNano),
        attributes: s.attributes.filter(
          (a) => !a.key.startsWith('gen_ai.input.') && !a.key.startsWith('gen_ai.output.'),
        ),
      }));
    const json = (spans: typeof richSpans) =>
      JSON.stringify(strip(spans), (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v));
    expect(json(richSpans)).toBe(json(leanSpans));
    expect(richSpans.filter((s) => !isLlm(s)).every((s) => !s.attributes.some((a) => a.key.includes('messages')))).toBe(
      true,
    );
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
    // the bench's runs arrive whole in one request: the workers' facts cover all of them, none left to SQL
    expect(report.ceiling?.workerFacts.runs).toBe(report.ceiling?.finaliser.runs);
    expect(report.ceiling?.workerFacts.leftRuns).toBe(0);
    expect(renderIngestReport(report)).toContain('no loss, no duplicates');
    // the server's run-facts counter, read once the spool was drained: never more runs than were stored
    const facts = report.runFactsAtCatchUp;
    expect(facts).toBeDefined();
    expect(facts!.ingest + facts!.sql).toBeLessThanOrEqual(report.stored.runs);
    expect(renderIngestReport(report)).toContain('computed by the ingest workers');
    // the server's stage histogram, read at the window's edges
    expect(report.stagesMs.map((s) => s.stage).sort()).toEqual(['commit', 'hold', 'process', 'read', 'wait']);
    expect(report.stagesMs.find((s) => s.stage === 'process')!.meanMs).toBeGreaterThan(0);
    expect(report.sustainedSpansPerS).toBe(Math.min(report.ackedSpansPerS, report.windowDrainSpansPerS));
    // the engine's allocator, scraped from /metrics while the round ran: its pages cover what it holds in use
    const engine = report.server.engine;
    expect(engine?.samples).toBeGreaterThanOrEqual(1);
    expect(engine!.peakAllocatedMiB).toBeGreaterThan(4);
    expect(engine!.peakResidentMiB).toBeGreaterThanOrEqual(engine!.peakAllocatedMiB);
    expect(engine!.peakResidentMiB).toBeLessThan(report.server.peakRssMiB);
    expect(renderIngestReport(report)).toContain("the engine's allocator, scraped from /metrics");
    expect(report.targets.map((t) => t.name)).toContain('sustained spans/s (acknowledged and stored in the window)');
    // the llm spans' gen_ai.choice events are message events: one (empty) content row each
    expect(report.stored.content.rows).toBe(report.load.ackedContentSpans);
    expect(report.stored.content.spanRowsWithContent).toBe(0);
  });

  it('judges latency on an open-loop round offered a share of the sustained rate', { timeout: 300_000 }, async () => {
    const opts = ingestBenchOptions({ smoke: true, latencyShare: 0.5, ceilingRows: 0 });
    const report = await runIngestRounds({ ...opts, command: 'vitest smoke' });
    const open = report.openLoop;
    if (open === undefined) throw new Error('no open-loop round');
    expect(open.offeredSpansPerS).toBeCloseTo(0.5 * report.sustainedSpansPerS, 6);
    expect(open.ackedSpansPerS).toBeGreaterThan(0);
    expect(open.correct).toBe(true);
    expect(report.correct).toBe(true);
    const p50 = report.targets.find((t) => t.name.startsWith('acknowledgement p50'));
    expect(p50?.name).toContain('open loop');
    expect(p50?.value).toBe(`${open.latencyMs.p50.toFixed(0)} ms`);
    expect(renderIngestReport(report)).toContain('Acknowledgement latency under an offered load');
  });

  it(
    'with --content-bytes, stores one span_content row per llm span sent and no content in the span rows',
    { timeout: 300_000 },
    async () => {
      const report = await runIngestBench({
        ...ingestBenchOptions({ smoke: true, contentBytes: 2048, ceilingRows: 0 }),
        command: 'vitest smoke content',
      });
      expect(report.load.otherFailures).toEqual([]);
      expect(report.stored.count).toBe(report.load.ackedSpans);
      expect(report.load.ackedContentSpans).toBeGreaterThan(0);
      expect(report.stored.content.rows).toBe(report.load.ackedContentSpans);
      expect(report.stored.content.uniqueSpans).toBe(report.stored.content.rows);
      expect(report.stored.content.spanRowsWithContent).toBe(0);
      expect(report.stored.content.truncated).toBe(0);
      // the text of the messages (the JSON framing is not kept): most of the ~2 KB
      const perRow = report.stored.content.textBytes / report.stored.content.rows;
      expect(perRow).toBeGreaterThan(1200);
      expect(perRow).toBeLessThan(2100);
      expect(report.correct).toBe(true);
      expect(renderIngestReport(report)).toContain('span rows still holding content');
    },
  );
});
