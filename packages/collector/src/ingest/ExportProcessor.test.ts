import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { TelltaleError } from '@telltale/semconv';
import { MessageChannel } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_SPAN_LIMITS } from '../normalise/spanLimits.js';
import { Rng, randomSpans } from '../otlp/randomSpans.fixture.js';
import { decodeExportPayload } from './exportPayload.js';
import { ExportProcessor } from './ExportProcessor.js';
import type { ExportJob } from './processExport.js';
import { WHOLE_RUN_REQUEST, wholeRunRequest } from './wholeRunRequest.fixture.js';
import type { WorkerFacts } from './workerProtocol.js';
import { encodeTraceRequest } from '../fused/encodeTraceRequest.fixture.js';

const NOW_MS = Date.parse('2026-11-23T12:00:00Z');

function body(seed: number): Uint8Array {
  const rng = new Rng(seed);
  return ProtobufTraceSerializer.serializeRequest(randomSpans(rng, 20))!;
}

describe('ExportProcessor', () => {
  // random start times span 2020–2030: let all but the wildest through
  const limits = { ...DEFAULT_SPAN_LIMITS, maxAgeMs: 20 * 365 * 86_400_000, maxFutureMs: 20 * 365 * 86_400_000 };
  const threaded = new ExportProcessor({ workers: 2, limits });
  const inline = new ExportProcessor({ workers: 0, limits });
  afterAll(async () => {
    await threaded.close();
    await inline.close();
  });

  it('gives the same result on worker threads as inline, for many concurrent requests', async () => {
    const seeds = Array.from({ length: 40 }, (_, i) => i + 1);
    const inlineResults = await Promise.all(
      seeds.map((s) => inline.process({ body: body(s), encoding: 'proto', projectId: 'p', nowMs: NOW_MS })),
    );
    const threadedResults = await Promise.all(
      seeds.map((s) => threaded.process({ body: body(s), encoding: 'proto', projectId: 'p', nowMs: NOW_MS })),
    );
    expect(threadedResults.map((r) => r.spanCount)).toEqual(inlineResults.map((r) => r.spanCount));
    expect(threadedResults.reduce((n, r) => n + r.spanCount, 0)).toBeGreaterThan(100);
    for (let i = 0; i < seeds.length; i++) {
      const a = inlineResults[i]!;
      const b = threadedResults[i]!;
      expect(b.rejectedSpans).toBe(a.rejectedSpans);
      if (a.spanCount === 0) continue;
      const pa = decodeExportPayload(Buffer.concat(a.parts));
      const pb = decodeExportPayload(Buffer.concat(b.parts));
      expect(pb.projectId).toBe('p');
      expect(pb.runIds).toEqual(pa.runIds);
      expect(Buffer.from(pb.message).equals(Buffer.from(pa.message))).toBe(true);
    }
  });

  it('decodes bodies sent in pieces as it does whole ones, the worker reusing its joined buffer', async () => {
    // pieces of uneven sizes, each a buffer of its own (as a socket's reads are), bodies of several sizes in a row
    const inPieces = (whole: Uint8Array, size: number): Uint8Array[] => {
      const pieces: Uint8Array[] = [];
      for (let at = 0; at < whole.length; at += size)
        pieces.push(Uint8Array.prototype.slice.call(whole, at, at + size));
      return pieces;
    };
    const seeds = Array.from({ length: 24 }, (_, i) => 100 + i);
    const one = new ExportProcessor({ workers: 1, limits });
    try {
      for (const s of seeds) {
        const whole = body(s);
        const want = await inline.process({ body: whole, encoding: 'proto', projectId: 'p', nowMs: NOW_MS });
        const pieces = inPieces(whole, 97 + (s % 5) * 311);
        const got = await one.process({ body: pieces, encoding: 'proto', projectId: 'p', nowMs: NOW_MS });
        expect(got.spanCount, `seed ${s}`).toBe(want.spanCount);
        // the pieces moved to the worker
        expect(pieces.every((p) => p.byteLength === 0)).toBe(true);
        if (want.spanCount === 0) continue;
        expect(Buffer.concat(got.parts).equals(Buffer.concat(want.parts)), `seed ${s}`).toBe(true);
      }
    } finally {
      await one.close();
    }
  });

  it('answers an undecodable body with a BAD_REQUEST error from the worker, and keeps working', async () => {
    const bad = threaded.process({
      body: new Uint8Array([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x01]),
      encoding: 'proto',
      projectId: 'p',
      nowMs: NOW_MS,
    });
    await expect(bad).rejects.toBeInstanceOf(TelltaleError);
    await expect(bad).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    const ok = await threaded.process({ body: body(7), encoding: 'proto', projectId: 'p', nowMs: NOW_MS });
    expect(ok.spanCount + ok.rejectedSpans).toBeGreaterThan(0);
  });

  it("tells where a job spent its time (waiting, processing) and the workers' heap in memory", async () => {
    const one = new ExportProcessor({ workers: 1, limits, perWorkerInFlight: 1 });
    try {
      expect(one.workerHeapBytes).toBe(0);
      const timings = Array.from({ length: 6 }, () => ({ waitMs: -1, processMs: -1 }));
      await Promise.all(
        timings.map((t, i) =>
          one.process({ body: body(100 + i), encoding: 'proto', projectId: 'p', nowMs: NOW_MS }, t),
        ),
      );
      for (const t of timings) {
        expect(t.processMs).toBeGreaterThan(0);
        expect(t.waitMs).toBeGreaterThanOrEqual(0);
      }
      // one worker taking one job at a time: the last job queued behind the other five
      expect(timings[5]!.waitMs).toBeGreaterThanOrEqual(timings.slice(0, 5).reduce((n, t) => n + t.processMs, 0) * 0.9);
      expect(one.workerHeapBytes).toBeGreaterThan(1 << 20);
    } finally {
      await one.close();
    }
    const timing = { waitMs: -1, processMs: -1 };
    await inline.process({ body: body(9), encoding: 'proto', projectId: 'p', nowMs: NOW_MS }, timing);
    expect(timing.processMs).toBeGreaterThan(0);
  });

  it('computes the run facts of every job a busy worker holds, none dropped', async () => {
    const heard = new Map<string, WorkerFacts>();
    // twenty jobs reach the worker at once: more facts queue than it defers
    const processor = new ExportProcessor({
      workers: 1,
      perWorkerInFlight: 20,
      limits,
      onFacts: (f) => heard.set(f.factsKey, f),
    });
    try {
      const keys = Array.from({ length: 20 }, (_, i) => `k${i}`);
      await Promise.all(
        keys.map((factsKey) =>
          processor.process({
            // a run of its own per job: facts computed from a copy another job's bytes overwrote would name another
            body: encodeTraceRequest(wholeRunRequest(`whole-${factsKey}`)),
            encoding: 'proto',
            projectId: 'p',
            nowMs: NOW_MS,
            factsKey,
          }),
        ),
      );
      const deadline = Date.now() + 10_000;
      while (heard.size < keys.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      expect([...heard.keys()].sort()).toEqual([...keys].sort());
      for (const k of keys)
        expect(
          heard.get(k)?.runs.map((r) => r.runId),
          k,
        ).toEqual([`whole-${k}`]);
    } finally {
      await processor.close();
    }
  });

  it("sends each job's run facts after its result, on worker threads and inline", async () => {
    for (const workers of [1, 0]) {
      const heard = new Map<string, WorkerFacts>();
      const processor = new ExportProcessor({ workers, limits, onFacts: (f) => heard.set(f.factsKey, f) });
      try {
        const whole = encodeTraceRequest(WHOLE_RUN_REQUEST);
        const job = (factsKey: string, b: Uint8Array): ExportJob => ({
          body: b,
          encoding: 'proto',
          projectId: 'p',
          nowMs: NOW_MS,
          factsKey,
        });
        const a = await processor.process(job('a', whole));
        // the spool takes the parts as soon as the result is in (Spool.append): the facts come from a copy
        const { port1 } = new MessageChannel();
        const spans = a.parts.at(-1)!;
        port1.postMessage(null, [spans.buffer as ArrayBuffer]);
        port1.close();
        expect(spans.byteLength).toBe(0);
        await processor.process(job('b', body(3)));
        await expect(processor.process(job('c', new Uint8Array([0x0a, 0xff])))).rejects.toThrow();
        await processor.process({ body: body(4), encoding: 'proto', projectId: 'p', nowMs: NOW_MS });
        const deadline = Date.now() + 10_000;
        while (heard.size < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
        expect([...heard.keys()].sort(), `workers: ${workers}`).toEqual(['a', 'b', 'c']);
        expect(heard.get('a')?.runs.map((r) => r.runId)).toEqual(['whole']);
        // random spans hold no run's root: no facts; a body that cannot be decoded: none either
        expect(heard.get('b')?.runs).toEqual([]);
        expect(heard.get('c')?.runs).toEqual([]);
      } finally {
        await processor.close();
      }
    }
  });
});
