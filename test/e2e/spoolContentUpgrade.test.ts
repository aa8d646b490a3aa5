import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeTraceRequestJson, normaliseRequest, Spool, SPOOL_PAYLOAD_VERSION } from '@telltale/collector';
import { encodeSpanRecordBatch } from '@telltale/store/encode';
import type { SpanContent } from '@telltale/api-contract';
import { afterEach, describe, expect, it } from 'vitest';
import { TelltaleProcess } from './harness/TelltaleProcess.js';

const RUN = 'spooled-v2-run';
const SPAN = '00000000000000a2';

/** An OTLP/JSON request of one llm span carrying GenAI messages. */
function request(): Buffer {
  const now = BigInt(Date.now()) * 1_000_000n;
  const messages = (role: string, text: string) => JSON.stringify([{ role, parts: [{ type: 'text', content: text }] }]);
  return Buffer.from(
    JSON.stringify({
      resourceSpans: [
        {
          resource: { attributes: [{ key: 'service.name', value: { stringValue: 'spool-upgrade-test' } }] },
          scopeSpans: [
            {
              spans: [
                {
                  traceId: 'c1b2c3d4e5f60718293a4b5c6d7e8f90',
                  spanId: SPAN,
                  name: 'chat m',
                  startTimeUnixNano: now.toString(),
                  endTimeUnixNano: (now + 5_000n).toString(),
                  attributes: [
                    { key: 'telltale.run.id', value: { stringValue: RUN } },
                    { key: 'gen_ai.operation.name', value: { stringValue: 'chat' } },
                    { key: 'gen_ai.input.messages', value: { stringValue: messages('user', 'spooled question') } },
                    { key: 'gen_ai.output.messages', value: { stringValue: messages('assistant', 'spooled answer') } },
                  ],
                  status: { code: 1 },
                },
              ],
            },
          ],
        },
      ],
    }),
  );
}

/** The parts a build writing spool payload version 2 appended: meta, the content as JSON, the spans Arrow message. */
function payloadV2(): { parts: Buffer[]; spans: number } {
  const { spans, contents } = normaliseRequest(decodeTraceRequestJson(request()), 'default', { nowMs: Date.now() });
  const json = Buffer.from(
    JSON.stringify(contents.map((c) => ({ ...c, startTimeUnixNano: c.startTimeUnixNano.toString() }))),
  );
  const meta = Buffer.from(JSON.stringify({ p: 'default', r: [RUN], c: json.length }));
  const length = Buffer.alloc(4);
  length.writeUInt32LE(meta.length, 0);
  return { parts: [length, meta, json, Buffer.from(encodeSpanRecordBatch(spans))], spans: spans.length };
}

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const done of cleanup.splice(0).reverse()) await done().catch(() => undefined);
});

describe('a spool written by the previous payload version (content as JSON)', () => {
  it(
    'drains after an upgrade: the spans are stored and their content reads as it was sent',
    { timeout: 120_000 },
    async () => {
      expect(SPOOL_PAYLOAD_VERSION).toBe(3);
      const dataDir = mkdtempSync(join(tmpdir(), 'telltale-spool-upgrade-'));
      cleanup.push(() => rm(dataDir, { recursive: true, force: true }));
      const old = await Spool.open({ dir: join(dataDir, 'spool'), version: 2 });
      const { parts, spans } = payloadV2();
      await old.append(parts, spans);
      await old.close();

      const telltale = await TelltaleProcess.start({ dataDir });
      cleanup.push(() => telltale.dispose());
      const path = `/api/v1/runs/${RUN}/spans/${SPAN}/content`;
      const deadline = Date.now() + 60_000;
      let res = await telltale.getJson<{ content: SpanContent }>(path);
      while (res.status !== 200 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 200));
        res = await telltale.getJson<{ content: SpanContent }>(path);
      }
      expect(res.status).toBe(200);
      expect(res.body.content.input.messages).toEqual([{ role: 'user', content: 'spooled question' }]);
      expect(res.body.content.output.messages).toEqual([{ role: 'assistant', content: 'spooled answer' }]);
      expect(res.body.content.truncated).toBe(false);
      expect(res.body.content.originalBytes).toBe('user'.length + 16 + 'assistant'.length + 14);
      expect(telltale.logs.filter((l) => l.includes('"level":50'))).toEqual([]);
    },
  );
});
