import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../Store.js';
import { makeSpan } from '../testing/makeSpan.js';
import { StoreInspector } from '../testing/StoreInspector.js';
import type { SpanContentRecord } from './SpanContentRecord.js';

const DAY_NS = 86_400_000_000_000n;
const NOW_NS = BigInt(Date.now()) * 1_000_000n;

function content(spanId: string, startTimeUnixNano: bigint, text: string): SpanContentRecord {
  return {
    projectId: 'p1',
    traceId: 'a'.repeat(32),
    spanId,
    runId: 'run-1',
    startTimeUnixNano,
    input: { messages: [{ role: 'user', content: text }] },
    output: { toolResult: '{"ok":true}' },
    truncated: false,
    originalBytes: text.length,
    capture: 'full',
    redactions: 1,
  };
}

describe('span content', () => {
  let dir: string;
  let store: Store;
  let inspect: StoreInspector;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'telltale-content-'));
    store = await Store.open({ kind: 'embedded', dataDir: dir });
    inspect = new StoreInspector(store);
  }, 120_000);

  afterAll(async () => {
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is found through its span, per span and per run, and only in its project', async () => {
    const old = NOW_NS - 3n * DAY_NS;
    await store.insertSpans([
      makeSpan({ spanId: '1'.repeat(16), startTimeUnixNano: old }),
      makeSpan({ spanId: '2'.repeat(16), startTimeUnixNano: NOW_NS }),
    ]);
    await store.content.insert([content('1'.repeat(16), old, 'old prompt'), content('2'.repeat(16), NOW_NS, 'new')], {
      deduplicationToken: 't1',
    });
    // a repeated insert (the drainer retrying a batch) stores nothing more
    await store.content.insert([content('1'.repeat(16), old, 'old prompt'), content('2'.repeat(16), NOW_NS, 'new')], {
      deduplicationToken: 't1',
    });
    expect(await inspect.contentRows()).toHaveLength(2);
    const [one] = await store.content.get('p1', 'run-1', '1'.repeat(16));
    expect(one).toEqual({
      traceId: 'a'.repeat(32),
      spanId: '1'.repeat(16),
      input: { messages: [{ role: 'user', content: 'old prompt' }] },
      output: { toolResult: '{"ok":true}' },
      truncated: false,
      originalBytes: 10,
      capture: 'full',
      redactions: 1,
    });
    expect((await store.content.get('p1', 'run-1')).map((c) => c.spanId)).toEqual(['1'.repeat(16), '2'.repeat(16)]);
    expect(await store.content.get('other', 'run-1')).toEqual([]);
    expect(await store.content.get('p1', 'run-2')).toEqual([]);
  });

  it('expires on its own retention while the spans stay', async () => {
    expect(await inspect.spanCount()).toBe(2);
    await store.content.setRetentionDays(1);
    await inspect.mergeParts(['span_content', 'spans']);
    const left = await inspect.contentRows();
    expect(left.map((r) => r.spanId)).toEqual(['2'.repeat(16)]);
    expect(await inspect.spanCount()).toBe(2);
    await expect(store.content.setRetentionDays(0)).rejects.toThrow(/whole number of days/);
  });

  it('stores a verbatim message list as received and reads it back as messages, measured by their strings', async () => {
    const spanId = '3'.repeat(16);
    await store.insertSpans([makeSpan({ spanId, startTimeUnixNano: NOW_NS })]);
    const json = JSON.stringify([
      { role: 'user', parts: [{ type: 'text', content: 'é'.repeat(200) }] },
      { role: 'assistant', parts: [{ type: 'text', content: 'fine' }] },
    ]);
    await store.content.insert(
      [
        {
          ...content(spanId, NOW_NS, ''),
          input: { verbatim: { shape: 'genAiMessages', json } },
          output: { toolResult: 'r' },
          originalBytes: Buffer.byteLength(json) + 1, // as the collector counts a verbatim list: its JSON's bytes
        },
      ],
      { deduplicationToken: 't3' },
    );
    const [got] = await store.content.get('p1', 'run-1', spanId);
    expect(got?.input).toEqual({
      messages: [
        { role: 'user', content: 'é'.repeat(200) },
        { role: 'assistant', content: 'fine' },
      ],
    });
    expect(got?.output).toEqual({ toolResult: 'r' });
    expect(got?.originalBytes).toBe('user'.length + 400 + 'assistant'.length + 'fine'.length + 1);
  });
});
