import { describe, expect, it } from 'vitest';
import { generateDataset } from './generateDataset.js';
import { generateDatasetChunks } from './generateDatasetChunks.js';
import { smallDataset } from './smallDataset.js';

const END = 1_900_000_000_000_000_000n;
const spec = smallDataset({ runs: 600, endNs: END });

describe('generateDataset', () => {
  const a = generateDataset(spec);

  it('is deterministic: the same spec gives identical spans and truth', () => {
    const b = generateDataset(smallDataset({ runs: 600, endNs: END }));
    expect(b.spans).toEqual(a.spans);
    expect(b.truth).toEqual(a.truth);
  });

  it('depends on the seed', () => {
    const c = generateDataset({ ...spec, seed: spec.seed + 1 });
    expect(c.spans.map((s) => s.spanId)).not.toEqual(a.spans.map((s) => s.spanId));
  });

  it('streams the same dataset in chunks of any size, truth so far growing', () => {
    const spans = [];
    const sizes: number[] = [];
    let truthRuns = 0;
    for (const chunk of generateDatasetChunks(spec, { runsPerChunk: 77 })) {
      spans.push(...chunk.spans);
      sizes.push(chunk.runs.length);
      truthRuns = chunk.truthSoFar().runs.length;
      expect(chunk.runs[0]!.runIndex).toBe(chunk.firstRunIndex);
    }
    expect(spans).toEqual(a.spans);
    expect(sizes.slice(0, -1).every((n) => n === 77)).toBe(true);
    expect(truthRuns).toBe(600);
  });

  it('makes well-formed spans: unique hex ids, one trace per run, times inside the window, children inside parents', () => {
    const ids = new Set(a.spans.map((s) => s.spanId));
    expect(ids.size).toBe(a.spans.length);
    expect(a.truth.spanCount).toBe(a.spans.length);
    const byId = new Map(a.spans.map((s) => [s.spanId, s]));
    const traceOfRun = new Map<string, string>();
    for (const s of a.spans) {
      expect(s.spanId).toMatch(/^[0-9a-f]{16}$/);
      expect(s.traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(s.runId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(traceOfRun.get(s.runId) ?? s.traceId).toBe(s.traceId);
      traceOfRun.set(s.runId, s.traceId);
      expect(s.startTimeUnixNano >= spec.startNs && s.endTimeUnixNano < spec.endNs).toBe(true);
      expect(s.endTimeUnixNano > s.startTimeUnixNano).toBe(true);
      const parent = byId.get(s.parentSpanId);
      if (parent !== undefined) {
        expect(s.startTimeUnixNano >= parent.startTimeUnixNano && s.endTimeUnixNano <= parent.endTimeUnixNano).toBe(
          true,
        );
        expect(parent.traceId).toBe(s.traceId);
      }
    }
    expect(new Set(traceOfRun.values()).size).toBe(traceOfRun.size);
  });

  it('mirrors canonical fields as raw attributes, with the tier on every span of a run', () => {
    const tierOf = new Map(a.truth.runs.map((r) => [r.runId, r.tier]));
    for (const s of a.spans) {
      const attrs = new Map(s.attributes.map((kv) => [kv.key, kv.value]));
      expect(attrs.get('telltale.run.id')).toBe(s.runId);
      expect(attrs.get('customer.tier')).toBe(tierOf.get(s.runId));
      if (s.stepKind !== '') expect(attrs.get('telltale.step.kind')).toBe(s.stepKind);
      if (s.attempt > 0) expect(attrs.get('telltale.step.attempt')).toBe(BigInt(s.attempt));
      if (s.toolName !== '') expect(attrs.get('telltale.tool.args_hash')).toBe(s.toolArgsHash);
      if (s.costUsd !== null) expect(attrs.get('telltale.cost.usd')).toBe(s.costUsd);
      if (s.stepKind === 'llm' && s.inputTokens > 0)
        expect(attrs.get('gen_ai.usage.input_tokens')).toBe(BigInt(s.inputTokens));
      expect(new Map(s.resourceAttributes.map((kv) => [kv.key, kv.value])).get('service.name')).toBe(s.serviceName);
    }
    expect(new Set(a.truth.runs.map((r) => r.tier))).toEqual(new Set(['free', 'pro']));
    expect(new Set(a.spans.map((s) => s.projectId)).size).toBeGreaterThanOrEqual(2);
  });

  it('leaves the root out of incomplete runs only', () => {
    const roots = new Set(a.spans.filter((s) => s.isRunRoot).map((s) => s.runId));
    for (const r of a.truth.runs) {
      expect(roots.has(r.runId)).toBe(r.outcome !== 'incomplete');
      expect(r.rootSpanId === null).toBe(r.outcome === 'incomplete');
    }
    expect(a.truth.totals.incomplete).toBeGreaterThan(0);
  });

  it('rejects specs whose truth would be ambiguous', () => {
    const agents = spec.agents.map((x) => x);
    const dup = { ...spec, agents: [...agents, { ...agents[0]!, name: 'copy' }] };
    expect(() => generateDataset(dup)).toThrow(/step name/);
    expect(() => generateDataset({ ...spec, startNs: spec.endNs - 40n * 86_400_000_000_000n })).toThrow(/29 days/);
  });
});
