import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@clickhouse/client';
import { startChServer, type ChServerProcess } from '@telltale/chserver';
import { afterEach, describe, expect, it } from 'vitest';
import { RunSender, runRequest, type SendTally } from './harness/RunSender.js';
import { RUN_COUNTS_SQL, storedRunCounts, toCounts, type RunCounts } from './harness/storedRunCounts.js';
import { runCli } from './harness/runCli.js';
import { TelltaleProcess } from './harness/TelltaleProcess.js';

const SPANS_PER_RUN = 20;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const done of cleanup.splice(0).reverse()) await done().catch(() => undefined);
});

/**
 * Every acknowledged run is stored whole and once; a run that was not
 * acknowledged is either absent or whole (never half-written); nothing is
 * stored that was never sent.
 */
function expectKeptExactlyOnce(counts: RunCounts, tally: SendTally): void {
  const missing = [...tally.acked].filter((run) => counts.get(run)?.spans !== SPANS_PER_RUN);
  const twice = [...counts].filter(([, c]) => c.rows !== c.spans);
  const partial = [...counts].filter(([, c]) => c.spans !== SPANS_PER_RUN);
  const unknown = [...counts.keys()].filter((run) => !tally.acked.has(run) && !tally.refused.has(run));
  expect({ missing, twice, partial, unknown }).toEqual({ missing: [], twice: [], partial: [], unknown: [] });
}

async function remoteCounts(url: string): Promise<RunCounts> {
  const client = createClient({ url });
  try {
    const result = await client.query({ query: RUN_COUNTS_SQL, format: 'JSONEachRow' });
    return toCounts(await result.json());
  } finally {
    await client.close();
  }
}

describe('the collector never loses an acknowledged span', () => {
  it('SIGKILL during sustained ingest: every run acknowledged before the kill is stored once after restart', async () => {
    const telltale = await TelltaleProcess.start();
    cleanup.push(() => telltale.dispose());
    const sender = new RunSender(() => telltale.url, { concurrency: 16, spansPerRun: SPANS_PER_RUN, prefix: 'kill' });
    sender.start();
    await sleep(2_500);
    await telltale.kill('SIGKILL');
    const tally = await sender.stop();
    expect(tally.acked.size).toBeGreaterThan(50);

    // SIGTERM as soon as the replay is under way, while the server is still starting: it must start, drain and exit cleanly
    const seen = telltale.logs.length;
    const restarted = telltale.restart();
    await telltale.waitForLog((l) => l.includes('spool replayed'), seen);
    const code = await telltale.stop();
    await restarted;
    expect({ code, logs: code === 0 ? [] : telltale.logs.slice(seen) }).toEqual({ code: 0, logs: [] });
    const counts = await storedRunCounts(telltale.dataDir);
    expectKeptExactlyOnce(counts, tally);
    console.log(
      `SIGKILL: ${tally.acked.size} runs (${tally.acked.size * SPANS_PER_RUN} spans) acknowledged, all stored once; ${tally.refused.size} unacknowledged runs, ${[...tally.refused].filter((r) => counts.has(r)).length} of them stored whole`,
    );
  });

  it('a crash between the insert and the spool checkpoint stores no duplicate, with the batch spanning spool segments', async () => {
    // 4 KiB segments: every record (a request of ≈ 20 KiB) fills one, so the batch in flight spans several
    const args = ['--spool-segment-bytes', '4096'];
    // inserts wait for the hold file: every run is acknowledged (spooled) before the first batch is taken
    const holdDir = mkdtempSync(join(tmpdir(), 'telltale-hold-'));
    cleanup.push(() => Promise.resolve(rmSync(holdDir, { recursive: true, force: true })));
    const holdFile = join(holdDir, 'release-inserts');
    const telltale = await TelltaleProcess.start({
      args,
      env: { TELLTALE_FAILPOINT: 'crash-after-insert', TELLTALE_FAILPOINT_HOLD_FILE: holdFile },
    });
    cleanup.push(() => telltale.dispose());
    const sender = new RunSender(() => telltale.url, {
      concurrency: 4,
      spansPerRun: SPANS_PER_RUN,
      prefix: 'crash',
      maxRuns: 40,
    });
    sender.start();
    const tally = await sender.done();
    writeFileSync(holdFile, '');
    // the drainer inserts the first batch, then the failpoint kills the process before the ack
    expect(await telltale.exited(15_000)).toEqual({ code: null, signal: 'SIGKILL' });
    expect(tally.acked.size).toBe(40);
    const checkpoint = JSON.parse(readFileSync(join(telltale.dataDir, 'spool', 'drain.json'), 'utf8')) as {
      seq: number;
      pendingSeq?: number;
    };
    expect(checkpoint.pendingSeq).toBeGreaterThan(checkpoint.seq); // the crashed insert's batch crossed segments

    await telltale.restart({ args, env: {} });
    expect(await telltale.stop()).toBe(0); // drains the spool on the way out
    const counts = await storedRunCounts(telltale.dataDir);
    expectKeptExactlyOnce(counts, tally);
    expect([...counts.values()].reduce((n, c) => n + c.rows, 0)).toBe(40 * SPANS_PER_RUN);
  });

  it('a second start on a data directory in use says so, before its spool or store is touched', async () => {
    const telltale = await TelltaleProcess.start();
    cleanup.push(() => telltale.dispose());
    const { code, stderr } = await runCli(
      ['start', '--data-dir', telltale.dataDir, '--port', '0', '--grpc-port', 'off'],
      { timeoutMs: 30_000 },
    );
    expect(code).toBe(1);
    expect(stderr).toContain(`the data directory ${telltale.dataDir} is in use by another process (pid`);
    expect(stderr).not.toContain('spool directory');
    expect(stderr).not.toContain('DB::Exception');
    // the first one serves on
    expect((await fetch(`${telltale.url}/healthz`)).status).toBe(200);
  });

  describe('remote ClickHouse', () => {
    let ch: ChServerProcess;

    async function startRemote(args: readonly string[]): Promise<TelltaleProcess> {
      ch = await startChServer();
      cleanup.push(() => ch.dispose());
      const telltale = await TelltaleProcess.start({ args: ['--clickhouse-url', ch.url, ...args] });
      cleanup.push(() => telltale.dispose());
      return telltale;
    }

    it('unreachable for a while during ingest: clients get 503 + Retry-After, and 0 spans are lost after recovery', async () => {
      const telltale = await startRemote(['--spool-max-bytes', String(1024 * 1024)]);
      const sender = new RunSender(() => telltale.url, {
        concurrency: 8,
        spansPerRun: SPANS_PER_RUN,
        prefix: 'outage',
        retry503: true,
      });
      sender.start();
      await sleep(1_000);
      await ch.stop('SIGKILL');
      await sleep(4_000); // ClickHouse is gone: the spool fills, then exports get 503
      await ch.start();
      await sleep(2_000);
      const tally = await sender.stop();

      expect(tally.statuses.get(503) ?? 0).toBeGreaterThan(0);
      expect(tally.retryAfter.every((s) => s >= 1 && s <= 3)).toBe(true);
      expect([...tally.statuses.keys()].filter((s) => s !== 200 && s !== 503)).toEqual([]);
      expect(tally.networkErrors).toBe(0);
      expect(await telltale.stop()).toBe(0); // drains the spool on the way out
      const counts = await remoteCounts(ch.url);
      expectKeptExactlyOnce(counts, tally);
      console.log(
        `outage: ${tally.acked.size} runs acknowledged and stored once; ${tally.statuses.get(503)} answers were 503`,
      );
    });

    it('spool full: 503 with Retry-After and nothing half-written; the refused runs are not stored, the acknowledged ones are', async () => {
      const telltale = await startRemote(['--spool-max-bytes', String(1024 * 1024)]);
      await ch.setMode({ mode: 'refuse' });
      const tally: SendTally = {
        acked: new Set(),
        refused: new Set(),
        statuses: new Map(),
        retryAfter: [],
        networkErrors: 0,
      };
      for (let i = 0; i < 400 && (tally.statuses.get(503) ?? 0) < 5; i++) {
        const runId = `full-${i}`;
        const res = await fetch(`${telltale.url}/v1/traces`, {
          method: 'POST',
          body: runRequest(runId, SPANS_PER_RUN),
          headers: { 'content-type': 'application/json' },
        });
        const body = (await res.json()) as { code?: number; message?: string };
        tally.statuses.set(res.status, (tally.statuses.get(res.status) ?? 0) + 1);
        if (res.status === 200) tally.acked.add(runId);
        else {
          tally.refused.add(runId);
          expect(res.status).toBe(503);
          expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
          expect(Number(res.headers.get('retry-after'))).toBeLessThanOrEqual(3);
          expect(body).toMatchObject({ code: 14, message: expect.stringMatching(/spool is full/) as unknown });
        }
      }
      expect(tally.statuses.get(503)).toBe(5);
      expect(tally.acked.size).toBeGreaterThan(10);

      await ch.setMode({ mode: 'ok' });
      expect(await telltale.stop()).toBe(0); // drains the spool on the way out
      const counts = await remoteCounts(ch.url);
      expectKeptExactlyOnce(counts, tally);
      expect([...tally.refused].filter((r) => counts.has(r))).toEqual([]);
      expect(counts.size).toBe(tally.acked.size);
    });

    it('a spool directory in use by another process: start refuses before it touches the store', async () => {
      ch = await startChServer();
      cleanup.push(() => ch.dispose());
      const spoolDir = mkdtempSync(join(tmpdir(), 'telltale-spool-held-'));
      cleanup.push(() => Promise.resolve(rmSync(spoolDir, { recursive: true, force: true })));
      // this test process is alive and is not the server: the directory is held
      writeFileSync(join(spoolDir, 'spool.lock'), String(process.pid));
      const { code, stderr } = await runCli(
        ['start', '--clickhouse-url', ch.url, '--spool-dir', spoolDir, '--port', '0', '--grpc-port', 'off'],
        { timeoutMs: 30_000 },
      );
      expect(code).toBe(1);
      expect(stderr).toContain(`spool directory ${spoolDir} is in use by process ${process.pid}`);
      // nothing was migrated: the shared store holds no table of ours
      const client = createClient({ url: ch.url });
      try {
        const tables = await client.query({
          query: 'SELECT name FROM system.tables WHERE database = currentDatabase()',
          format: 'JSONEachRow',
        });
        expect(await tables.json()).toEqual([]);
      } finally {
        await client.close();
      }
      expect(readFileSync(join(spoolDir, 'spool.lock'), 'utf8')).toBe(String(process.pid)); // and the lock is not taken over
    });
  });
});
