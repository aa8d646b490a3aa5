import { describe, expect, it } from 'vitest';
import { encodeTraceRequest } from '../fused/encodeTraceRequest.fixture.js';
import { NOW_MS } from '../normalise/otlpSpan.fixture.js';
import { jobFacts } from './jobFacts.js';
import { processExport } from './processExport.js';
import { SpareCopies } from './SpareCopies.js';
import { WHOLE_RUN_REQUEST } from './wholeRunRequest.fixture.js';

const bytes = (n: number, fill: number): Uint8Array => new Uint8Array(n).fill(fill);

describe('SpareCopies', () => {
  it('copies into a released buffer rather than a new one, byte for byte', () => {
    const copies = new SpareCopies(2, 1 << 20);
    const first = copies.copy(bytes(1000, 7));
    expect([...first]).toEqual([...bytes(1000, 7)]);
    expect(first.buffer.byteLength).toBe(1250); // room for a somewhat larger message next time
    copies.release(first);
    expect(copies.size).toBe(1);

    const second = copies.copy(bytes(1200, 9));
    expect(second.buffer).toBe(first.buffer);
    expect(second.byteLength).toBe(1200);
    expect([...second]).toEqual([...bytes(1200, 9)]);
    expect(copies.size).toBe(0);
  });

  it('lets a spare too small go, and keeps at most `keep` spares, none twice and none above `maxBytes`', () => {
    const copies = new SpareCopies(2, 4096);
    const small = copies.copy(bytes(100, 1));
    copies.release(small);
    const large = copies.copy(bytes(3000, 2));
    expect(large.buffer).not.toBe(small.buffer);
    expect(large.buffer.byteLength).toBe(3750);
    expect(copies.size).toBe(0);

    copies.release(large);
    copies.release(large);
    expect(copies.size).toBe(1);
    const huge = copies.copy(bytes(5000, 3));
    expect(huge.buffer.byteLength).toBe(5000); // past maxBytes: made for this message alone
    copies.release(huge);
    expect(copies.size).toBe(0);

    const a = copies.copy(bytes(10, 4));
    const b = copies.copy(bytes(10, 5));
    const c = copies.copy(bytes(10, 6));
    for (const x of [a, b, c]) copies.release(x);
    expect(copies.size).toBe(2);
  });

  it('holds run facts that keep nothing of the copy they were computed from', () => {
    const { parts } = processExport(
      { body: encodeTraceRequest(WHOLE_RUN_REQUEST), encoding: 'proto', projectId: 'p', nowMs: NOW_MS },
      undefined,
    );
    const message = parts.at(-1)!;
    const copies = new SpareCopies(1, 1 << 20);
    const copy = copies.copy(message);
    const facts = jobFacts('k', 'p', copy);
    const rows = (f: typeof facts): number[][] =>
      [f.rows.steps, f.rows.runSteps, f.rows.runs].flatMap((t) => [[...t.bytes], [...t.starts]]);
    const before = { runs: structuredClone(facts.runs), rows: rows(facts) };
    expect(before.runs.map((r) => r.runId)).toEqual(['whole']);

    // the spare is reused for the next request's copy: the facts already computed must not change
    copies.release(copy);
    copies.copy(new Uint8Array(message.byteLength).fill(0xff));
    expect(facts.runs).toEqual(before.runs);
    expect(rows(facts)).toEqual(before.rows);
    expect(jobFacts('k', 'p', message)).toEqual(facts);
  });
});
