import { describe, expect, it } from 'vitest';
import { encodeTraceRequest } from '../fused/encodeTraceRequest.fixture.js';
import { NOW_MS } from '../normalise/otlpSpan.fixture.js';
import { jobFacts } from './jobFacts.js';
import { processExport } from './processExport.js';
import { WHOLE_RUN_REQUEST } from './wholeRunRequest.fixture.js';

describe('jobFacts', () => {
  it("gives a job's run facts from its spans message, and none without one or from bytes it cannot read", () => {
    const { parts } = processExport(
      { body: encodeTraceRequest(WHOLE_RUN_REQUEST), encoding: 'proto', projectId: 'p', nowMs: NOW_MS },
      undefined,
    );
    expect(jobFacts('k', 'p', parts.at(-1)).runs.map((r) => r.runId)).toEqual(['whole']);
    const none = jobFacts('k', 'p', undefined);
    expect(none).toMatchObject({ factsKey: 'k', projectId: 'p', runs: [] });
    expect(none.rows.runs.bytes.byteLength).toBe(0);
    expect(jobFacts('k', 'p', new Uint8Array(64)).runs).toEqual([]);
    expect(jobFacts('k', 'p', parts.at(-1)!.subarray(0, 200)).runs).toEqual([]);
  });
});
