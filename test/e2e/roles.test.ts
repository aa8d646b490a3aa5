import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebhookReceiver } from '@telltale/alerts';
import { startChServer, type ChServerProcess } from '@telltale/chserver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCheckoutSuccessRule, sendFlakyCheckoutRuns } from './harness/checkoutSuccessRule.js';
import { poll } from './harness/poll.js';
import { runRequest } from './harness/RunSender.js';
import { TelltaleProcess } from './harness/TelltaleProcess.js';

const SPANS_PER_RUN = 5;
const RUNS = 60;
/** Storage-side polling (facts finalised by the ingest processes: quiet 10 s + a 5 s flush) gets a generous bound. */
const SETTLE_MS = 120_000;

async function post(proc: TelltaleProcess, runId: string): Promise<boolean> {
  try {
    const res = await fetch(`${proc.url}/v1/traces`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: runRequest(runId, SPANS_PER_RUN),
      signal: AbortSignal.timeout(20_000),
    });
    await res.arrayBuffer();
    return res.status === 200;
  } catch {
    return false;
  }
}

/*
 * Split roles against one shared store (the test ClickHouse HTTP server):
 * two ingest, one query and two worker processes of the real CLI.
 */
describe('roles: ingest, query and worker processes sharing one store', { timeout: 240_000 }, () => {
  const chDir = mkdtempSync(join(tmpdir(), 'telltale-roles-ch-'));
  let clickhouse: ChServerProcess;
  let ingest: TelltaleProcess[] = [];
  let query: TelltaleProcess;
  let workers: TelltaleProcess[] = [];
  let receiver: WebhookReceiver;
  const chQuery = async <T>(sql: string): Promise<T[]> => {
    const res = await fetch(`${clickhouse.url}/?query=${encodeURIComponent(`${sql} FORMAT JSONEachRow`)}`);
    const text = await res.text();
    if (res.status !== 200) throw new Error(text);
    return text
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as T);
  };
  const remote = (): string[] => ['--clickhouse-url', clickhouse.url];
  const workerArgs = (): string[] => [
    '--role',
    'worker',
    ...remote(),
    '--alerts-allow-private',
    '127.0.0.0/8',
    '--alerts-retry-base-ms',
    '10000',
  ];

  beforeAll(async () => {
    clickhouse = await startChServer({ dataDir: chDir });
    receiver = await WebhookReceiver.start();
    // five processes migrate one empty store at once
    const started = await Promise.all([
      TelltaleProcess.start({ args: ['--role', 'ingest', ...remote()] }),
      TelltaleProcess.start({ args: ['--role', 'ingest', ...remote()] }),
      TelltaleProcess.start({ args: ['--role', 'query', ...remote(), '--alerts-allow-private', '127.0.0.0/8'] }),
      TelltaleProcess.start({ args: workerArgs() }),
      TelltaleProcess.start({ args: workerArgs() }),
    ]);
    ingest = started.slice(0, 2);
    query = started[2]!;
    workers = started.slice(3);
  }, 180_000);
  afterAll(async () => {
    await Promise.all([...ingest, query, ...workers].map((p) => p?.dispose()));
    await receiver?.close();
    await clickhouse?.dispose();
    rmSync(chDir, { recursive: true, force: true });
  });

  it('processes migrating one empty store at once apply each migration once and all become ready', async () => {
    const versions = await chQuery<{ version: number; n: string }>(
      'SELECT version, count() AS n FROM schema_migrations GROUP BY version ORDER BY version',
    );
    expect(versions.length).toBeGreaterThanOrEqual(9);
    for (const v of versions) expect(Number(v.n), `migration ${v.version}`).toBe(1);
    for (const p of [...ingest, query, ...workers]) {
      await poll('ready', 60_000, async () => {
        const res = await fetch(`${p.url}/readyz`);
        if (res.status !== 200) throw new Error(`${p.url}: ${await res.text()}`);
        return true;
      });
      expect((await fetch(`${p.url}/healthz`)).status).toBe(200);
      expect((await fetch(`${p.url}/metrics`)).status).toBe(200);
    }
    // each role serves its part only
    expect((await fetch(`${ingest[0]!.url}/api/v1/runs`)).status).toBe(404);
    expect((await fetch(`${query.url}/v1/traces`, { method: 'POST', body: '{}' })).status).toBe(404);
  });

  it('runs split across both ingest processes, one SIGKILLed mid-load, all reach the query process', async () => {
    const [a, b] = ingest as [TelltaleProcess, TelltaleProcess];
    const acked = new Set<string>();
    // first half alternates between the two ingest processes
    for (let i = 0; i < RUNS / 2; i++) {
      const id = `split-${i}`;
      if (await post(i % 2 === 0 ? a : b, id)) acked.add(id);
    }
    // the second half goes to A in parallel while A is SIGKILLed; what A did not acknowledge goes to B
    const inFlight = Array.from({ length: RUNS / 2 }, async (_, k) => {
      const id = `split-${RUNS / 2 + k}`;
      if (await post(a, id)) acked.add(id);
      else if (await post(b, id)) acked.add(id);
    });
    await poll('some of A’s second half acknowledged', 30_000, () =>
      Promise.resolve(acked.size > RUNS / 2 + 2 ? true : undefined),
    );
    await a.kill('SIGKILL');
    await Promise.all(inFlight);
    // restarted on the same data dir: its spool is replayed into the store
    await a.restart({ args: ['--role', 'ingest', ...remote()] });
    expect(acked.size).toBe(RUNS);

    const runs = await poll('every acknowledged run with its spans and facts', SETTLE_MS, async () => {
      const res = await fetch(`${query.url}/api/v1/runs?limit=500`);
      const page = (await res.json()) as { total: number; runs: { runId: string; spans: number }[] };
      const got = page.runs.filter((r) => r.runId.startsWith('split-'));
      return [...acked].every((id) => got.some((r) => r.runId === id && r.spans === SPANS_PER_RUN)) ? got : undefined;
    });
    // a run A stored without answering was sent again to B: it may exist twice over, never partly
    expect(runs.every((r) => r.spans % SPANS_PER_RUN === 0)).toBe(true);
    const stored = await chQuery<{ runs: string; spans: string }>(
      "SELECT uniqExact(run_id) AS runs, count() AS spans FROM spans WHERE run_id LIKE 'split-%'",
    );
    expect(Number(stored[0]!.runs)).toBe(RUNS);
  });

  it('the leading worker SIGKILLed while a rule fires: the other takes over, nothing lost, same webhook-id', async () => {
    await createCheckoutSuccessRule(query.url, receiver.url);
    // the first attempt fails: the notification stays pending in the outbox, due again ≥ 5 s later
    receiver.respondWith(503);
    await sendFlakyCheckoutRuns(ingest[1]!.url);
    const [first] = await receiver.waitFor(1, SETTLE_MS);
    const leader = workers.find((w) => w.logs.some((l) => l.includes('alert worker: leading')));
    expect(leader).toBeDefined();
    const standby = workers.find((w) => w !== leader)!;
    const killedAt = Date.now();
    await leader!.kill('SIGKILL');
    const [, retry] = await receiver.waitFor(2, 90_000);
    expect(retry!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    expect(standby.logs.some((l) => l.includes('alert worker: leading'))).toBe(true);
    console.log(`worker failover: the retry arrived ${Date.now() - killedAt} ms after the leader was killed`);
    // the retry was delivered: nothing more is sent for this firing
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
  });
});
