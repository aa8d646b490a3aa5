import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store } from './Store.js';
import type { SpanRecord } from './spans/SpanRecord.js';
import { makeSpan } from './testing/makeSpan.js';

// Recent: the table TTL drops spans older than the retention window.
const T0 = BigInt(Date.now() - 3_600_000) * 1_000_000n + 456_789n;

function span(overrides: Partial<SpanRecord>): SpanRecord {
  return makeSpan({ startTimeUnixNano: T0, ...overrides });
}

describe('Store (embedded chDB)', () => {
  let dir: string;
  let store: Store;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'telltale-store-'));
    store = await Store.open({ kind: 'embedded', dataDir: dir });
    await store.insertSpans([
      // run-1: root ok, one tool step with typed attributes and an event, one llm step with cost
      span({
        spanId: '0000000000000001',
        stepKind: 'run',
        name: 'agent',
        isRunRoot: true,
        endTimeUnixNano: T0 + 5_000_000n,
        statusCode: 1,
      }),
      span({
        spanId: '0000000000000002',
        parentSpanId: '0000000000000001',
        stepKind: 'tool',
        stepName: 'search',
        toolName: 'search',
        attempt: 2,
        startTimeUnixNano: T0 + 1n,
        endTimeUnixNano: T0 + 2_000_001n,
        attributes: [
          { key: 's', value: 'text\n\nwith blank line' },
          { key: 'i', value: 9_007_199_254_740_993n },
          { key: 'small', value: 42n },
          { key: 'd', value: 1.5 },
          { key: 'b', value: true },
          { key: 'arr', value: ['x', 1n] },
          { key: 'kv', value: { kvlist: [{ key: 'k', value: 'v' }] } },
        ],
        events: [{ timeUnixNano: T0 + 7n, name: 'retry', attributes: [{ key: 'n', value: 2n }] }],
      }),
      span({
        spanId: '0000000000000003',
        parentSpanId: '0000000000000001',
        stepKind: 'llm',
        model: 'm',
        inputTokens: 10,
        outputTokens: 5,
        costUsd: 0.25,
        startTimeUnixNano: T0 + 2n,
      }),
      // run-2: root failed
      span({
        runId: 'run-2',
        traceId: 'b'.repeat(32),
        spanId: '0000000000000004',
        stepKind: 'run',
        name: 'agent',
        isRunRoot: true,
        statusCode: 2,
        errorType: 'Boom',
        startTimeUnixNano: T0 + 10n,
      }),
      // run-3: no root yet
      span({
        runId: 'run-3',
        traceId: 'c'.repeat(32),
        spanId: '0000000000000005',
        parentSpanId: '00000000000000ff',
        stepKind: 'tool',
        startTimeUnixNano: T0 + 20n,
      }),
      // another project's run must never show up in p1
      span({ projectId: 'p2', runId: 'run-x', spanId: '0000000000000006', stepKind: 'run', isRunRoot: true }),
    ]);
  });

  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists runs newest first with outcomes, scoped to the project', async () => {
    const { runs, total } = await store.runs.listRuns({ projectId: 'p1' }, { limit: 10, offset: 0 });
    expect(total).toBe(3);
    expect(runs.map((r) => [r.runId, r.outcome])).toEqual([
      ['run-3', 'incomplete'],
      ['run-2', 'failure'],
      ['run-1', 'success'],
    ]);
    const run1 = runs.find((r) => r.runId === 'run-1')!;
    expect(run1).toMatchObject({
      name: 'agent',
      steps: 2,
      spans: 3,
      costUsd: 0.25,
      inputTokens: 10,
      outputTokens: 5,
      durationNs: '5000000',
    });
    expect(run1.startTimeUnixNano).toBe(T0.toString());
    expect(runs.find((r) => r.runId === 'run-2')!.errorType).toBe('Boom');
  });

  it('filters by outcome and pages', async () => {
    const failed = await store.runs.listRuns({ projectId: 'p1', outcome: 'failure' }, { limit: 10, offset: 0 });
    expect(failed.runs.map((r) => r.runId)).toEqual(['run-2']);
    const page2 = await store.runs.listRuns({ projectId: 'p1' }, { limit: 1, offset: 1 });
    expect(page2).toMatchObject({ total: 3, runs: [{ runId: 'run-2' }] });
    const past = await store.runs.listRuns({ projectId: 'p1' }, { limit: 10, offset: 50 });
    expect(past).toEqual({ runs: [], total: 3 });
  });

  it('reads a run back with nanosecond times and typed attributes', async () => {
    const got = await store.runs.getRun('p1', 'run-1');
    expect(got?.spans.map((s) => s.spanId)).toEqual(['0000000000000001', '0000000000000002', '0000000000000003']);
    const tool = got!.spans[1]!;
    expect(tool.startTimeUnixNano).toBe((T0 + 1n).toString());
    expect(tool.durationNs).toBe('2000000');
    expect(tool.attempt).toBe(2);
    expect(tool.attributes).toEqual({
      s: 'text\n\nwith blank line',
      i: '9007199254740993',
      small: 42,
      d: 1.5,
      b: true,
      arr: ['x', 1],
      kv: { k: 'v' },
    });
    expect(tool.events).toEqual([{ timeUnixNano: (T0 + 7n).toString(), name: 'retry', attributes: { n: 2 } }]);
    expect(await store.runs.getRun('p2', 'run-1')).toBeUndefined();
  });

  it('orders spans that start together by attempt, then end, then span id', async () => {
    // starts in whole milliseconds: a retry starts in its failed attempt's, and ends first when it is quicker
    const same = (spanId: string, endMs: bigint, attempt = 0): SpanRecord =>
      span({
        projectId: 'p3',
        runId: 'run-ties',
        traceId: 'd'.repeat(32),
        spanId,
        stepKind: 'tool',
        attempt,
        endTimeUnixNano: T0 + endMs * 1_000_000n,
      });
    await store.insertSpans([
      same('00000000000000a1', 3n),
      same('00000000000000a2', 1n),
      same('00000000000000a3', 2n),
      same('00000000000000b1', 5n, 2),
      same('00000000000000b2', 9n, 1),
    ]);
    const expected = [
      '00000000000000a2',
      '00000000000000a3',
      '00000000000000a1',
      '00000000000000b2',
      '00000000000000b1',
    ];
    expect((await store.runs.getTraceSpans('p3', 'd'.repeat(32))).map((s) => s.spanId)).toEqual(expected);
    expect((await store.runs.getRun('p3', 'run-ties'))?.spans.map((s) => s.spanId)).toEqual(expected);
  });

  it('keeps data across a reopen of the same directory', async () => {
    await store.close();
    store = await Store.open({ kind: 'embedded', dataDir: dir });
    const { total } = await store.runs.listRuns({ projectId: 'p1' }, { limit: 10, offset: 0 });
    expect(total).toBe(3);
  });

  it('sets retention as a TTL and rejects nonsense', async () => {
    await store.setRetentionDays(7);
    await expect(store.setRetentionDays(0)).rejects.toThrow(expect.objectContaining({ code: 'INVALID_CONFIG' }));
  });
});

describe('Store.open (remote ClickHouse)', () => {
  /** A port nothing listens on: one the system gave out, then closed. */
  async function closedPort(): Promise<number> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    return port;
  }

  it('fails with STORAGE naming the address, without its credentials, when nothing listens there', async () => {
    const port = await closedPort();
    const opened = Store.open({ kind: 'remote', url: `http://admin:hunter22@127.0.0.1:${port}` });
    await expect(opened).rejects.toMatchObject({
      code: 'STORAGE',
      message: `no ClickHouse at http://127.0.0.1:${port}: nothing listens there (connection refused)`,
    });
  });

  it('fails with STORAGE when another service answers on that port', async () => {
    const server = createServer((_req, res) => res.writeHead(404).end('this port serves /metrics'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const err = await Store.open({ kind: 'remote', url: `http://127.0.0.1:${port}` }).then(
        () => undefined,
        (e: unknown) => e as { code: string; message: string },
      );
      expect(err?.code).toBe('STORAGE');
      expect(err?.message).toMatch(
        new RegExp(`^no ClickHouse at http://127\\.0\\.0\\.1:${port}: its /ping did not answer like ClickHouse`),
      );
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
