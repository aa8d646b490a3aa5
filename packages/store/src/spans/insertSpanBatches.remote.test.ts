import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tableFromIPC } from 'apache-arrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { query } from 'chdb';
import { CLUSTER_QUERY_SETTINGS, createClickHouseClient } from '../client.js';
import { makeSpan } from '../testing/makeSpan.js';
import { encodeSpanRecordBatch } from './arrow/encodeSpanRecordBatch.js';
import { SPANS_ARROW_COLUMNS } from './arrow/spansArrowSchema.js';
import { spansArrowStream } from './arrow/spansArrowStream.js';
import { insertSpanBatches } from './insertSpanBatches.js';
import { encodeContentRecordBatch } from '../content/arrow/encodeContentRecordBatch.js';
import { CONTENT_ARROW_COLUMNS } from '../content/arrow/contentArrowSchema.js';
import { insertSpanContentBatches } from '../content/spanContent.js';

/** What a ClickHouse HTTP endpoint was sent. */
interface Received {
  params: URLSearchParams;
  body: Buffer;
}

/**
 * A stand-in for a ClickHouse server's HTTP interface that records each
 * request and answers like ClickHouse does (200 and a summary header, or 500
 * with the exception text). It checks how the client sends the stream; what a
 * real server makes of it is tested against chDB, which reads the same bytes.
 */
class RecordingClickHouseEndpoint {
  readonly received: Received[] = [];
  failWith: string | undefined;
  private readonly server: Server = createServer((req, res) => {
    void this.read(req).then((body) => {
      this.received.push({ params: new URL(req.url ?? '/', 'http://x').searchParams, body });
      if (this.failWith !== undefined) {
        res.writeHead(500, { 'X-ClickHouse-Exception-Code': '60' }).end(this.failWith);
        return;
      }
      res.writeHead(200, { 'X-ClickHouse-Summary': '{"written_rows":"0"}' }).end();
    });
  });

  private async read(req: IncomingMessage): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }
  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

describe('insertSpanBatches over HTTP (remote ClickHouse)', () => {
  const endpoint = new RecordingClickHouseEndpoint();
  let client: ReturnType<typeof createClickHouseClient>;
  let url: string;

  beforeAll(async () => {
    url = await endpoint.start();
    client = createClickHouseClient({ kind: 'remote', url });
  });
  afterAll(async () => {
    await client.close();
    await endpoint.stop();
  });

  it('sends the ArrowStream as the request body, the statement and the token as URL parameters', async () => {
    const T0 = 1_700_000_000_123_456_789n;
    const messages = [
      encodeSpanRecordBatch([makeSpan({ startTimeUnixNano: T0, spanId: 'a', name: 'a\n\nb' })]),
      encodeSpanRecordBatch([
        makeSpan({ startTimeUnixNano: T0, spanId: 'b' }),
        makeSpan({ startTimeUnixNano: T0, spanId: 'c' }),
      ]),
    ];
    await insertSpanBatches(client, { kind: 'body' }, messages, { deduplicationToken: 'spool-3:1-2' });
    const [request] = endpoint.received.splice(0);
    expect(request!.params.get('query')).toBe(
      `INSERT INTO spans (${SPANS_ARROW_COLUMNS.join(', ')}) FORMAT ArrowStream`,
    );
    expect(request!.params.get('insert_deduplication_token')).toBe('spool-3:1-2');
    expect(request!.body.equals(Buffer.concat(spansArrowStream(messages)))).toBe(true);
    expect(tableFromIPC(request!.body).getChild('span_id')!.toArray()).toEqual(['a', 'b', 'c']);
  });

  it('copies each message into the body before taking the next, so a source may reuse its buffer', async () => {
    // messages of about 0.5 MB: the request's stream takes the next while the socket still sends the one before
    const messages = Array.from({ length: 6 }, (_, k) =>
      encodeSpanRecordBatch(
        Array.from({ length: 600 }, (_, i) =>
          makeSpan({
            startTimeUnixNano: 1_700_000_000_000_000_000n,
            spanId: `m${k}-${i}`,
            attributes: [{ key: 'note', value: `${k}:${i} `.repeat(100) }],
          }),
        ),
      ),
    );
    expect(Math.min(...messages.map((m) => m.byteLength))).toBeGreaterThan(400_000);
    const shared = new Uint8Array(Math.max(...messages.map((m) => m.byteLength)));
    async function* reusing(): AsyncGenerator<Uint8Array> {
      for (const m of messages) {
        await new Promise((resolve) => setImmediate(resolve)); // a read, as the spool's
        shared.fill(0xee);
        shared.set(m);
        yield shared.subarray(0, m.byteLength);
      }
    }
    await insertSpanBatches(client, { kind: 'body' }, reusing());
    const [request] = endpoint.received.splice(0);
    expect(request!.body.equals(Buffer.concat(spansArrowStream(messages)))).toBe(true);
  });

  it('sends span content the same way: one ArrowStream of the span_content columns', async () => {
    const content = (spanId: string) => ({
      projectId: 'p',
      traceId: 't'.repeat(32),
      spanId,
      runId: 'r',
      startTimeUnixNano: 1_700_000_000_000_000_000n,
      input: { text: `in ${spanId}` },
      output: {},
      truncated: false,
      originalBytes: 4,
      capture: '',
      redactions: 0,
    });
    const messages = [encodeContentRecordBatch([content('a')]), encodeContentRecordBatch([content('b')])];
    await insertSpanContentBatches(client, { kind: 'body' }, messages, { deduplicationToken: 'spool-3:1-2:content' });
    const [request] = endpoint.received.splice(0);
    expect(request!.params.get('query')).toBe(
      `INSERT INTO span_content (${CONTENT_ARROW_COLUMNS.join(', ')}) FORMAT ArrowStream`,
    );
    expect(request!.params.get('insert_deduplication_token')).toBe('spool-3:1-2:content');
    const table = tableFromIPC(request!.body);
    expect(table.getChild('span_id')!.toArray()).toEqual(['a', 'b']);
    expect(table.getChild('input')!.toArray()).toEqual(['{"text":"in a"}', '{"text":"in b"}']);
  });

  it('on a cluster, every statement carries the cluster settings, as values ClickHouse takes', async () => {
    const onCluster = createClickHouseClient({ kind: 'remote', url, cluster: 'prod' });
    try {
      await onCluster.command({ query: 'SELECT 1' });
    } finally {
      await onCluster.close();
    }
    const params = endpoint.received.splice(0).at(-1)!.params;
    const settings = Object.entries(CLUSTER_QUERY_SETTINGS).map(([name, value]) => [name, String(value)] as const);
    expect(settings.map(([name]) => [name, params.get(name)])).toEqual(settings);
    expect(params.get('distributed_product_mode')).toBe('global');
    // the engine knows each setting and takes each value (an unknown one, or a bad value, throws)
    const set = settings.map(([name, value]) => `${name} = '${value}'`).join(', ');
    expect(query(`SELECT getSetting('distributed_product_mode') SETTINGS ${set}`, 'TSVRaw').trim()).toBe('global');
    expect(() => query(`SELECT 1 SETTINGS distributed_product_mode = 'everywhere'`, 'TSVRaw')).toThrow();
  });

  it('rejects with the server error, and can insert again afterwards', async () => {
    const messages = [encodeSpanRecordBatch([makeSpan({ startTimeUnixNano: 1n })])];
    endpoint.failWith = 'Code: 60. DB::Exception: Unknown table expression identifier spans. (UNKNOWN_TABLE)';
    try {
      await expect(insertSpanBatches(client, { kind: 'body' }, messages)).rejects.toThrow(
        /Unknown table expression identifier spans/,
      );
    } finally {
      endpoint.failWith = undefined;
    }
    await insertSpanBatches(client, { kind: 'body' }, messages);
    expect(endpoint.received.splice(0).map((r) => r.params.has('insert_deduplication_token'))).toEqual([false, false]);
  });
});
