import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebhookReceiver } from '@telltale/alerts';
import { startChServer, type ChServerProcess } from '@telltale/chserver';
import { generateDataset, smallDataset } from '@telltale/datasets';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportDataset } from './harness/exportDataset.js';
import { poll } from './harness/poll.js';
import { createAnyLoopRule, runLooperUntilAlerted } from './harness/loopAlert.js';
import { TelltaleProcess } from './harness/TelltaleProcess.js';

/** Facts finalised by the ingest processes (quiet 10 s, checked every 5 s) on a loaded machine: generous. */
const SETTLE_MS = 150_000;
const POLL_EVERY_MS = 500;

async function get<T>(proc: TelltaleProcess, path: string): Promise<T> {
  const res = await fetch(`${proc.url}/api/v1${path}`, { signal: AbortSignal.timeout(30_000) });
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

interface RunRow {
  runId: string;
  outcome: string;
  spans: number;
  costUsd: number | null;
}
interface Reliability {
  runs: { success: number; failure: number; incomplete: number };
  agents: { agent: string; service: string; runs: number }[];
}
interface Cost {
  runs: { total: number; success: number; failure: number; incomplete: number };
  totalUsd: number;
}

async function allRuns(proc: TelltaleProcess, window: string): Promise<RunRow[]> {
  const out: RunRow[] = [];
  for (let offset = 0; ; offset += 500) {
    const page = await get<{ runs: RunRow[]; total: number }>(proc, `/runs?${window}&limit=500&offset=${offset}`);
    out.push(...page.runs);
    if (page.runs.length < 500) return out.sort((a, b) => (a.runId < b.runId ? -1 : 1));
  }
}

/** Float sums depend on the order rows are read in; compare to 12 significant digits. */
function rounded<T>(value: T): T {
  return JSON.parse(
    JSON.stringify(value, (_k, v: unknown) => (typeof v === 'number' ? Number(v.toPrecision(12)) : v)),
  ) as T;
}

/** What a query process shows of the dataset: the figures compared across deployments. */
async function figures(proc: TelltaleProcess, window: string) {
  return rounded({
    reliability: await get<Reliability>(proc, `/reliability/summary?${window}`),
    curve: await get<unknown>(proc, `/reliability/curve?${window}`),
    cost: await get<Cost>(proc, `/cost/summary?${window}`),
    costByModel: await get<unknown>(proc, `/cost/breakdown?${window}&groupBy=model`),
    runs: await allRuns(proc, window),
  });
}

/*
 * Split roles against the truth: a known dataset split across two ingest
 * processes reads back from the query process exactly as from one
 * `--role all` process fed the same spans, and as the generator's truth;
 * a loop detected live on an ingest process is alerted by the leading worker.
 */
describe('roles: figures and live alerts across split processes', { timeout: 300_000 }, () => {
  const { spans, truth } = generateDataset(smallDataset({ runs: 400 }));
  const window = `from=${truth.startNs / 1_000_000n}&to=${truth.endNs / 1_000_000n + 1n}`;
  const chDir = mkdtempSync(join(tmpdir(), 'telltale-roles-truth-ch-'));
  let clickhouse: ChServerProcess;
  let single: TelltaleProcess;
  let ingest: TelltaleProcess[] = [];
  let query: TelltaleProcess;
  let workers: TelltaleProcess[] = [];
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    clickhouse = await startChServer({ dataDir: chDir });
    receiver = await WebhookReceiver.start();
    const remote = ['--clickhouse-url', clickhouse.url, '--alerts-allow-private', '127.0.0.0/8'];
    const started = await Promise.all([
      TelltaleProcess.start({ args: ['--role', 'ingest', ...remote] }),
      TelltaleProcess.start({ args: ['--role', 'ingest', ...remote] }),
      TelltaleProcess.start({ args: ['--role', 'query', ...remote] }),
      TelltaleProcess.start({ args: ['--role', 'worker', ...remote] }),
      TelltaleProcess.start({ args: ['--role', 'worker', ...remote] }),
      TelltaleProcess.start({ args: ['--role', 'all'] }),
    ]);
    ingest = started.slice(0, 2);
    query = started[2]!;
    workers = started.slice(3, 5);
    single = started[5]!;
  }, 180_000);
  afterAll(async () => {
    await Promise.all([...ingest, query, ...workers, single].map((p) => p?.dispose()));
    await receiver?.close();
    await clickhouse?.dispose();
    rmSync(chDir, { recursive: true, force: true });
  });

  it('a dataset split across both ingest processes gives the single process’s figures and the truth', async () => {
    await exportDataset(
      ingest.map((p) => p.url),
      spans,
    );
    await exportDataset([single.url], spans);
    const expected = await figures(single, window);

    // the truth: every run with its outcome and span count; outcome counts per agent
    expect(expected.runs.map((r) => ({ runId: r.runId, outcome: r.outcome, spans: r.spans }))).toEqual(
      truth.runs
        .map((r) => ({ runId: r.runId, outcome: r.outcome, spans: r.spanCount }))
        .sort((a, b) => (a.runId < b.runId ? -1 : 1)),
    );
    const count = (o: string): number => truth.runs.filter((r) => r.outcome === o).length;
    expect(expected.reliability.runs).toEqual({
      success: count('success'),
      failure: count('failure'),
      incomplete: count('incomplete'),
    });
    expect(expected.cost.runs).toMatchObject({ total: truth.runs.length, success: count('success') });
    for (const a of truth.agents) {
      const got = expected.reliability.agents.find((x) => x.agent === a.agent && x.service === a.service);
      expect(got?.runs, a.agent).toBe(a.success + a.failure);
    }

    // the split deployment converges on exactly the same figures
    const split = await poll(
      'the query process shows what the single process shows',
      SETTLE_MS,
      async () => {
        const got = await figures(query, window);
        return JSON.stringify(got) === JSON.stringify(expected) ? got : undefined;
      },
      POLL_EVERY_MS,
    ).catch(async (err: unknown) => {
      // name the first difference
      expect(await figures(query, window)).toEqual(expected);
      throw err;
    });
    expect(split.cost.totalUsd).toBeGreaterThan(0);
  });

  it('a loop detected live on an ingest process reaches the leading worker, which alerts the receiver', async () => {
    // the dataset above loops too: this rule watches the looping service only
    const { secret } = await createAnyLoopRule(query, receiver.url, { service: 'looping-svc' });
    // the leader has loaded the rule: it evaluates from storage, so wait until one leads
    await poll(
      'a leading worker',
      60_000,
      () =>
        Promise.resolve(
          workers.some((w) => w.logs.some((l) => l.includes('alert worker: leading'))) ? true : undefined,
        ),
      POLL_EVERY_MS,
    );

    const { runId, thirdAt, firingAt, shutdown } = await runLooperUntilAlerted(ingest[1]!.url, receiver, 60_000);
    await receiver.waitFor(2, 60_000).catch((err: unknown) => {
      for (const p of [...ingest, ...workers]) console.log(p.logs.filter((l) => /loop|live|alert/i.test(l)).join('\n'));
      throw err;
    });
    await shutdown();

    const [firingBody, resolvedBody] = receiver.received.map(
      (r) =>
        new Webhook(secret).verify(r.body, r.headers as Record<string, string>) as {
          status: string;
          labels: Record<string, string>;
        },
    );
    expect(firingBody).toMatchObject({
      status: 'firing',
      labels: { runId, loopKind: 'repeated_action', tool: 'search', service: 'looping-svc' },
    });
    expect(resolvedBody).toMatchObject({ status: 'resolved', labels: { runId } });
    // live: the alert came while the run was open, not from the stored facts after it ended
    expect(firingAt).toBeGreaterThanOrEqual(thirdAt);
    console.log(`split roles: live loop alert ${firingAt - thirdAt} ms after the third repetition`);
    // each event is raised once: no duplicate firing from the standby or a re-read window
    // (an absence: a short bounded look, not a synchronisation)
    await new Promise((r) => setTimeout(r, 3_000));
    expect(receiver.received).toHaveLength(2);
  });
});
