import { describe, expect, it } from 'vitest';
import { encodeTraceRequest } from '../fused/encodeTraceRequest.fixture.js';
import { NOW_MS } from '../normalise/otlpSpan.fixture.js';
import { computeRequestFacts } from '@telltale/store/encode';
import { decodeExportPayload, type ExportPayload } from './exportPayload.js';
import { WHOLE_RUN_REQUEST } from './wholeRunRequest.fixture.js';
import { processExport, processExportObjects, type ExportJob } from './processExport.js';

const job = (factsKey: string | undefined, encoding: ExportJob['encoding'] = 'proto'): ExportJob => ({
  body:
    encoding === 'proto'
      ? encodeTraceRequest(WHOLE_RUN_REQUEST)
      : Buffer.from(JSON.stringify(jsonOf(WHOLE_RUN_REQUEST))),
  encoding,
  projectId: 'p',
  nowMs: NOW_MS,
  ...(factsKey === undefined ? {} : { factsKey }),
});

/** The request as OTLP/JSON (string nanoseconds, typed values). */
function jsonOf(req: typeof WHOLE_RUN_REQUEST): unknown {
  return JSON.parse(
    JSON.stringify(req, (_, v: unknown) => (typeof v === 'bigint' ? String(v) : v)),
    (key, v: unknown) => (key === 'value' && typeof v === 'string' ? { stringValue: v } : v),
  );
}

const payloadOf = (j: ExportJob, process = processExport): ExportPayload =>
  decodeExportPayload(Buffer.concat(process(j, undefined).parts));

describe('export payload run facts', () => {
  it('names the key of its run facts, the same on the fused protobuf path, the object path and from OTLP/JSON', () => {
    const fused = Buffer.concat(processExport(job('b0.7'), undefined).parts);
    expect(decodeExportPayload(fused).factsKey).toBe('b0.7');
    expect(Buffer.concat(processExportObjects(job('b0.7'), undefined).parts).equals(fused)).toBe(true);
    expect(payloadOf(job('b0.7', 'json')).factsKey).toBe('b0.7');
    expect(payloadOf(job(undefined)).factsKey).toBeUndefined();
  });

  it('computes from the spans message the facts of the runs a request holds whole, root included, and of no other', () => {
    for (const j of [job(undefined), job(undefined, 'json')]) {
      const facts = computeRequestFacts('p', payloadOf(j).message);
      expect(facts.map((f) => [f.runId, f.spans, f.traces])).toEqual([['whole', 3, ['a'.repeat(32)]]]);
      const [whole] = facts;
      expect(whole?.lines.runs).toHaveLength(1);
      expect(whole?.lines.runs[0]).toMatch(/^\["p","whole",/);
      expect(whole?.lines.runSteps).toHaveLength(1);
      // open lines: the version (and a run's ingest time) are appended when they are written
      expect(whole?.lines.steps.map((l) => (JSON.parse(`${l}]`) as unknown[])[2])).toEqual(['plan', 'tool']);
    }
  });
});
