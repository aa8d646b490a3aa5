import { TelltaleAttr } from '@telltale/semconv';
import { describe, expect, it } from 'vitest';
import { encodeTraceRequest } from '../fused/encodeTraceRequest.fixture.js';
import { NOW_MS, otlpRequest, otlpSpan } from '../normalise/otlpSpan.fixture.js';
import type { OtlpSpan } from '../otlp/types.js';
import { decodeExportPayload } from './exportPayload.js';
import { processExport, processExportObjects, type ExportJob } from './processExport.js';

/** A span of run `run` (trace `t`), child of `parent` when given. */
function span(run: string, t: string, s: string, parent: string | undefined, kind: string): OtlpSpan {
  return otlpSpan({
    traceId: t.repeat(32),
    spanId: s.repeat(16),
    parentSpanId: parent === undefined ? '' : parent.repeat(16),
    name: kind,
    attributes: [
      { key: TelltaleAttr.runId, value: run },
      { key: TelltaleAttr.stepKind, value: kind },
    ],
  });
}

/** Run "whole" (its root and two steps) and run "open" (two steps, its root not sent yet). */
const REQUEST = otlpRequest(
  [
    span('whole', 'a', '1', undefined, 'run'),
    span('whole', 'a', '2', '1', 'plan'),
    span('whole', 'a', '3', '1', 'tool'),
    span('open', 'b', '5', '4', 'plan'),
    span('open', 'b', '6', '4', 'tool'),
  ],
  'svc',
);

const job = (runFacts: boolean, encoding: ExportJob['encoding'] = 'proto'): ExportJob => ({
  body: encoding === 'proto' ? encodeTraceRequest(REQUEST) : Buffer.from(JSON.stringify(jsonOf(REQUEST))),
  encoding,
  projectId: 'p',
  nowMs: NOW_MS,
  runFacts,
});

/** The request as OTLP/JSON (hex ids, string nanoseconds, typed values). */
function jsonOf(req: typeof REQUEST): unknown {
  return JSON.parse(
    JSON.stringify(req, (_, v: unknown) => (typeof v === 'bigint' ? String(v) : v)),
    (key, v: unknown) => (key === 'value' && typeof v === 'string' ? { stringValue: v } : v),
  );
}

describe('export payload run facts', () => {
  it('carries the facts of the runs a request holds whole, root included, and of no other', () => {
    const payload = decodeExportPayload(Buffer.concat(processExport(job(true), undefined).parts));
    expect(payload.runIds.sort()).toEqual(['open', 'whole']);
    expect(payload.facts.map((f) => [f.runId, f.spans, f.traces])).toEqual([['whole', 3, ['a'.repeat(32)]]]);
    const [facts] = payload.facts;
    expect(facts?.lines.runs).toHaveLength(1);
    expect(facts?.lines.runs[0]).toMatch(/^\["p","whole",/);
    expect(facts?.lines.runSteps).toHaveLength(1);
    expect(facts?.lines.steps.map((l) => JSON.parse(`${l}]`) as unknown[]).map((r) => r[2])).toEqual(['plan', 'tool']);
  });

  it('gives the same payload on the fused protobuf path, the object path and from OTLP/JSON', () => {
    const fused = Buffer.concat(processExport(job(true), undefined).parts);
    expect(Buffer.concat(processExportObjects(job(true), undefined).parts).equals(fused)).toBe(true);
    const json = decodeExportPayload(Buffer.concat(processExport(job(true, 'json'), undefined).parts));
    expect(json.facts).toEqual(decodeExportPayload(fused).facts);
  });

  it('carries none unless asked, and reads a payload with malformed facts as one without', () => {
    const plain = Buffer.concat(processExport(job(false), undefined).parts);
    expect(decodeExportPayload(plain).facts).toEqual([]);
    const metaBytes = plain.readUInt32LE(0);
    const meta = JSON.parse(plain.toString('utf8', 4, 4 + metaBytes)) as Record<string, unknown>;
    for (const f of [{}, [{ runId: 'whole' }], [null], 'x']) {
      const bad = Buffer.from(JSON.stringify({ ...meta, f }));
      const length = Buffer.alloc(4);
      length.writeUInt32LE(bad.length, 0);
      const decoded = decodeExportPayload(Buffer.concat([length, bad, plain.subarray(4 + metaBytes)]));
      expect(decoded.facts).toEqual([]);
      expect(decoded.runIds.sort()).toEqual(['open', 'whole']);
    }
  });
});
