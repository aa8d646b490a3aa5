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
      const { runs, rows } = computeRequestFacts('p', payloadOf(j).message);
      expect(runs.map((f) => [f.runId, f.spans, f.traces])).toEqual([['whole', 3, ['a'.repeat(32)]]]);
      expect(runs[0]?.rows).toEqual({ steps: [0, 2], runSteps: [0, 1], runs: [0, 1] });
      // RowBinary rows: the version first (stamped when they are written), then project, run and step name
      const stepNames = [0, 1].map((i) => {
        const row = Buffer.from(rows.steps.bytes.subarray(rows.steps.starts[i], rows.steps.starts[i + 1]));
        const texts: string[] = [];
        for (let at = 8; texts.length < 3; at += 1 + row[at]!)
          texts.push(row.toString('utf8', at + 1, at + 1 + row[at]!));
        return texts;
      });
      expect(stepNames).toEqual([
        ['p', 'whole', 'plan'],
        ['p', 'whole', 'tool'],
      ]);
    }
  });
});
