/**
 * Micro-bench of the Arrow span insert path (not a test):
 *   1. encodeSpanRecordBatch on one core, realistic agent spans, by request size;
 *   2. chDB inserts of 20k-row batches: insertSpansJson (JSONEachRow, the old
 *      Store.insertSpans) against Store.insertSpanBatches (one ArrowStream
 *      insert) on the same rows.
 * Run: `npm run bench:arrow --prefix test/bench [-- spans]`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Store, type SpanRecord } from '@telltale/store';
import { encodeSpanRecordBatch } from '@telltale/store/encode';
import { agentSpans } from './agentSpans.js';
import { StoreInspector } from '@telltale/store/testing';

const BATCH = 20_000;

function rate(n: number, ms: number): string {
  return `${Math.round((n / ms) * 1000).toLocaleString('en-US')}/s`;
}

function encodeAll(spans: readonly SpanRecord[], size: number): { ms: number; bytes: number } {
  let bytes = 0;
  const t = performance.now();
  for (let i = 0; i < spans.length; i += size) bytes += encodeSpanRecordBatch(spans.slice(i, i + size)).byteLength;
  return { ms: performance.now() - t, bytes };
}

/** A yardstick for this machine: a JS loop that only copies the spans' strings (no offsets, no checks, no numbers). */
function copyStrings(spans: readonly SpanRecord[]): number {
  const out = new Uint8Array(1 << 24);
  let pos = 0;
  const copy = (s: string): void => {
    if (pos + s.length > out.length) pos = 0;
    for (let i = 0; i < s.length; i++) out[pos++] = s.charCodeAt(i);
  };
  const t = performance.now();
  for (const s of spans) {
    for (const v of [
      s.projectId,
      s.traceId,
      s.spanId,
      s.parentSpanId,
      s.runId,
      s.serviceName,
      s.name,
      s.stepKind,
      s.stepName,
      s.toolName,
      s.stateHash,
      s.outputHash,
      s.model,
      s.scopeName,
    ])
      copy(v);
    for (const a of [...s.attributes, ...s.resourceAttributes]) {
      copy(a.key);
      if (typeof a.value === 'string') copy(a.value);
    }
  }
  return performance.now() - t;
}

function withProject(spans: readonly SpanRecord[], projectId: string): SpanRecord[] {
  return spans.map((s) => ({ ...s, projectId }));
}

async function main(): Promise<void> {
  const total = Number(process.argv[2] ?? 200_000);
  console.log(
    `node ${process.version}, ${cpus().length} cpus (${cpus()[0]?.model ?? '?'}), ${total.toLocaleString('en-US')} spans`,
  );
  const spans = agentSpans(total, 7);
  const attrs = spans.reduce((n, s) => n + s.attributes.length, 0) / spans.length;
  const events = spans.reduce((n, s) => n + s.events.length, 0) / spans.length;
  console.log(`spans: ${attrs.toFixed(1)} attributes, ${events.toFixed(2)} events on average`);

  const yardstick = Math.min(copyStrings(spans), copyStrings(spans), copyStrings(spans));
  console.log(`yardstick: a bare JS loop copying the spans' strings runs at ${rate(total, yardstick)} spans`);

  console.log('\nencodeSpanRecordBatch, one core (best of 3 after a warm-up):');
  encodeAll(spans, 1000);
  for (const size of [10, 100, 1000, BATCH]) {
    let best = { ms: Infinity, bytes: 0 };
    for (let k = 0; k < 3; k++) {
      const r = encodeAll(spans, size);
      if (r.ms < best.ms) best = r;
    }
    console.log(
      `  ${String(size).padStart(6)} spans/message: ${rate(total, best.ms)} spans, ${(best.bytes / total).toFixed(0)} bytes/span`,
    );
  }

  const dir = mkdtempSync(join(tmpdir(), 'telltale-arrow-bench-'));
  const store = await Store.open({ kind: 'embedded', dataDir: dir });
  const inspector = new StoreInspector(store);
  try {
    const batches: SpanRecord[][] = [];
    for (let i = 0; i + BATCH <= total; i += BATCH) batches.push(spans.slice(i, i + BATCH));
    const t = { json: 0, arrowInsert: 0, arrowEncode: 0, smallInsert: 0, smallEncode: 0 };
    // interleaved, so that both paths see the same table state; distinct projects keep the rows apart
    for (const [i, batch] of batches.entries()) {
      const json = withProject(batch, `json-${i}`);
      let s = performance.now();
      await inspector.insertSpansJson(json);
      t.json += performance.now() - s;

      const arrow = withProject(batch, `arrow-${i}`);
      s = performance.now();
      const message = encodeSpanRecordBatch(arrow);
      t.arrowEncode += performance.now() - s;
      s = performance.now();
      await store.insertSpanBatches([message], arrow);
      t.arrowInsert += performance.now() - s;

      // the spool's shape: one small message per request, many in one insert
      const small = withProject(batch, `small-${i}`);
      s = performance.now();
      const messages: Uint8Array[] = [];
      for (let k = 0; k < small.length; k += 10) messages.push(encodeSpanRecordBatch(small.slice(k, k + 10)));
      t.smallEncode += performance.now() - s;
      s = performance.now();
      await store.insertSpanBatches(messages, small);
      t.smallInsert += performance.now() - s;
    }
    const rows = batches.length * BATCH;
    console.log(
      `\nchDB inserts, ${batches.length} × ${BATCH.toLocaleString('en-US')}-row batches, same rows on each path:`,
    );
    console.log(`  insertSpansJson (JSONEachRow, row objects incl.):  ${rate(rows, t.json)} rows`);
    console.log(
      `  insertSpanBatches, 1 message of 20k:               ${rate(rows, t.arrowInsert)} rows (insert only); ${rate(rows, t.arrowInsert + t.arrowEncode)} with encoding`,
    );
    console.log(
      `  insertSpanBatches, 2,000 messages of 10 in one:    ${rate(rows, t.smallInsert)} rows (insert only); ${rate(rows, t.smallInsert + t.smallEncode)} with encoding`,
    );
    console.log(`  rows stored: ${JSON.stringify([{ n: await inspector.spanCount() }])}`);
  } finally {
    await store.runFacts.stop().catch(() => undefined);
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
