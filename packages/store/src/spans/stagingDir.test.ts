import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Store } from '../Store.js';
import { makeSpan } from '../testing/makeSpan.js';
import { encodeSpanRecordBatch } from './arrow/encodeSpanRecordBatch.js';
import { STAGING_DIR } from '../insertTransport.js';
import { clientOf } from '../internal/storeRunners.js';

describe('embedded inserts stage their files in the data directory', () => {
  const dir = mkdtempSync(join(tmpdir(), 'telltale-staging-'));
  const staging = join(dir, STAGING_DIR);
  let store: Store | undefined;
  afterAll(async () => {
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('removes the file a killed insert left behind when the store opens, and leaves none after an insert', async () => {
    // what a process killed in the middle of an insert leaves, beside a file that is not ours
    mkdirSync(staging, { recursive: true });
    writeFileSync(join(staging, 'telltale-spans-0b8f7a6e-dead-4c1e-9d7a-1f2e3d4c5b6a.arrows'), Buffer.alloc(1024));
    writeFileSync(join(staging, 'telltale-5d0c1b2a-beef-4a3b-8c7d-6e5f4a3b2c1d.jsoncompacteachrow'), '["half a row');
    writeFileSync(join(staging, 'notes.txt'), 'not a staging file');

    store = await Store.open({ kind: 'embedded', dataDir: dir });
    expect(readdirSync(staging)).toEqual(['notes.txt']);

    const t0 = BigInt(Date.now()) * 1_000_000n;
    const spans = [0, 1, 2].map((i) =>
      makeSpan({ spanId: `s${i}`, runId: 'staged-run', startTimeUnixNano: t0 + BigInt(i) }),
    );
    await store.insertSpanBatches([encodeSpanRecordBatch(spans)], []);
    const result = await clientOf(store).query({
      query: `SELECT count() AS n FROM spans WHERE run_id = 'staged-run'`,
      format: 'JSONEachRow',
    });
    expect((await result.json<{ n: string | number }>()).map((r) => Number(r.n))).toEqual([3]);
    expect(readdirSync(staging)).toEqual(['notes.txt']);
  });

  it('writes run facts through staging files too, and leaves none behind', async () => {
    const t0 = BigInt(Date.now()) * 1_000_000n;
    const spans = [0, 1, 2].map((i) =>
      makeSpan({ spanId: `f${i}`, runId: 'staged-facts', startTimeUnixNano: t0 + BigInt(i) }),
    );
    await store!.insertSpans(spans);
    await store!.runFacts.flush();
    const result = await clientOf(store!).query({
      query: `SELECT span_count FROM run_facts FINAL WHERE run_id = 'staged-facts'`,
      format: 'JSONEachRow',
    });
    expect((await result.json<{ span_count: string | number }>()).map((r) => Number(r.span_count))).toEqual([3]);
    expect(store!.runFacts.finalised.incremental).toBeGreaterThanOrEqual(1);
    expect(readdirSync(staging)).toEqual(['notes.txt']);
  });

  it('reads a staging file with read calls: its pages are never mapped into the process', async () => {
    const t0 = BigInt(Date.now()) * 1_000_000n;
    const message = encodeSpanRecordBatch(
      Array.from({ length: 2_000 }, (_, i) =>
        makeSpan({ spanId: `m${i}`, runId: `mapped-${i % 50}`, startTimeUnixNano: t0 + BigInt(i) }),
      ),
    );
    // what a mapped file would show: a mapping of the staging directory's file in the process's map
    const stagedMappings = (): number =>
      readFileSync('/proc/self/maps', 'utf8')
        .split('\n')
        .filter((line) => line.includes(`${staging}/`)).length;
    let samples = 0;
    let mapped = 0;
    const sampler = setInterval(() => {
      samples++;
      mapped = Math.max(mapped, stagedMappings());
    }, 1);
    try {
      // ≈ 40 MB of Arrow in one insert: long enough for the sampler to see it
      await store!.insertSpanBatches(Array<Uint8Array>(40).fill(message), []);
    } finally {
      clearInterval(sampler);
    }
    expect(samples).toBeGreaterThan(5);
    expect(mapped).toBe(0);
    const result = await clientOf(store!).query({
      query: `SELECT count() AS n FROM spans WHERE startsWith(run_id, 'mapped-')`,
      format: 'JSONEachRow',
    });
    expect((await result.json<{ n: string | number }>()).map((r) => Number(r.n))).toEqual([80_000]);
  });
});
