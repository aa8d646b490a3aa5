import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { startChServer, type ChServerProcess } from '@telltale/chserver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metricValue } from './harness/metricValue.js';
import { runCli } from './harness/runCli.js';
import { TelltaleProcess } from './harness/TelltaleProcess.js';

const METRICS_TOKEN = 'roles-quota-metrics-token-0123456789';
/** The project's quota, spans per second. */
const QUOTA = 200;
/** Seconds of quota a bucket holds (docs/roles.md: one burst of 5 s of quota). */
const BURST_S = 5;
/** Spans per export request. */
const BATCH = 50;
/** How long both processes are sent to. */
const SEND_MS = 8_000;
/** Concurrent senders per process, each paced to one request per PACE_MS: 16 requests (800 spans) a second per process, 4 × the whole quota. */
const SENDERS = 2;
const PACE_MS = 125;

/** A real OTLP/protobuf ExportTraceServiceRequest: one run of BATCH spans, made by the OTel SDK. */
function exportRequest(runId: string): Uint8Array<ArrayBuffer> {
  const memory = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(memory)] });
  const tracer = provider.getTracer('quota-e2e');
  for (let i = 0; i < BATCH; i++)
    tracer.startSpan(i === 0 ? 'agent run' : `step ${i}`, { attributes: { 'telltale.run.id': runId } }).end();
  return new Uint8Array(ProtobufTraceSerializer.serializeRequest(memory.getFinishedSpans())!);
}

async function metrics(proc: TelltaleProcess): Promise<string> {
  const res = await fetch(`${proc.url}/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    signal: AbortSignal.timeout(15_000),
  });
  if (res.status !== 200) throw new Error(`/metrics: ${res.status}`);
  return res.text();
}

interface Tally {
  acceptedSpans: number;
  offeredSpans: number;
  refused: number;
  other: string[];
  sample429?: { retryAfter: string | null; body: string };
}

/** Posts to one process from SENDERS paced loops until `untilMs`; counts what it accepts and refuses. */
async function flood(proc: TelltaleProcess, key: string, bodies: readonly Uint8Array<ArrayBuffer>[], untilMs: number) {
  const tally: Tally = { acceptedSpans: 0, offeredSpans: 0, refused: 0, other: [] };
  let next = 0;
  const sender = async (): Promise<void> => {
    while (Date.now() < untilMs) {
      const sentAt = Date.now();
      const res = await fetch(`${proc.url}/v1/traces`, {
        method: 'POST',
        body: bodies[next++ % bodies.length]!,
        headers: { 'content-type': 'application/x-protobuf', authorization: `Bearer ${key}` },
        signal: AbortSignal.timeout(20_000),
      });
      const body = new TextDecoder().decode(await res.arrayBuffer());
      tally.offeredSpans += BATCH;
      if (res.status === 200) tally.acceptedSpans += BATCH;
      else if (res.status === 429) {
        tally.refused++;
        tally.sample429 ??= { retryAfter: res.headers.get('retry-after'), body };
      } else tally.other.push(`${res.status} ${body}`);
      // pacing the load, not a synchronisation
      const rest = PACE_MS - (Date.now() - sentAt);
      if (rest > 0) await new Promise((r) => setTimeout(r, rest));
    }
  };
  await Promise.all(Array.from({ length: SENDERS }, sender));
  return tally;
}

/*
 * Per-project ingest quotas across split roles: two `--role ingest`
 * processes sharing one ClickHouse each enforce half the quota once they
 * see each other in the registry, so the project gets its quota in total,
 * not twice it.
 */
describe('roles: a project ingest quota holds across two ingest processes', { timeout: 240_000 }, () => {
  const chDir = mkdtempSync(join(tmpdir(), 'telltale-roles-quota-ch-'));
  let clickhouse: ChServerProcess;
  let ingest: TelltaleProcess[] = [];
  let key = '';

  beforeAll(async () => {
    clickhouse = await startChServer({ dataDir: chDir });
    const remote = ['--clickhouse-url', clickhouse.url];
    const project = await runCli(['projects', 'create', 'q', '--max-spans-per-second', String(QUOTA), ...remote]);
    expect(project.code, project.stderr).toBe(0);
    const created = await runCli(['keys', 'create', '--project', 'q', '--kind', 'ingest', ...remote]);
    expect(created.code, created.stderr).toBe(0);
    key = created.stdout.trim();
    const args = ['--role', 'ingest', '--auth', 'keys', '--metrics-token', METRICS_TOKEN, ...remote];
    ingest = await Promise.all([TelltaleProcess.start({ args }), TelltaleProcess.start({ args })]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all(ingest.map((p) => p.dispose()));
    await clickhouse?.dispose();
    rmSync(chDir, { recursive: true, force: true });
  });

  it('accepts at most the quota (plus the documented burst) in total, refusing the rest with 429', async () => {
    // both registered and each sees the other: each enforces half the quota (renewals every 5 s)
    const shares = async (): Promise<(number | undefined)[]> =>
      Promise.all(ingest.map(async (p) => metricValue(await metrics(p), 'telltale_ingest_quota_share')));
    const deadline = Date.now() + 60_000;
    let seen = await shares();
    while (!seen.every((s) => s === 0.5)) {
      if (Date.now() > deadline)
        throw new Error(`the ingest processes did not see each other in 60 s: ${JSON.stringify(seen)}`);
      await new Promise((r) => setTimeout(r, 250));
      seen = await shares();
    }

    const bodies = ingest.map((_, p) => Array.from({ length: 20 }, (_, i) => exportRequest(`quota-run-${p}-${i}`)));
    const startedAt = Date.now();
    const tallies = await Promise.all(ingest.map((p, i) => flood(p, key, bodies[i]!, startedAt + SEND_MS)));
    const elapsedS = (Date.now() - startedAt) / 1000;

    const accepted = tallies.reduce((n, t) => n + t.acceptedSpans, 0);
    const bound = QUOTA * (elapsedS + BURST_S) + ingest.length * BATCH;
    // what each process would let through if it enforced the whole quota
    const perProcessFull = QUOTA * (elapsedS + BURST_S);
    console.log(
      `roles quota: ${accepted} spans accepted in ${elapsedS.toFixed(1)} s (bound ${bound.toFixed(0)}, quota ${QUOTA}/s); ` +
        tallies
          .map((t, i) => `process ${i}: offered ${t.offeredSpans}, accepted ${t.acceptedSpans}, 429 × ${t.refused}`)
          .join('; '),
    );
    for (const [i, t] of tallies.entries()) {
      expect(t.other, `process ${i}: only 200 and 429`).toEqual([]);
      // enough load that a process enforcing the whole quota would let through more than the bound in total
      expect(t.offeredSpans, `process ${i} offered`).toBeGreaterThan(perProcessFull);
      // its half of the quota, its burst and one batch
      expect(t.acceptedSpans, `process ${i} accepted`).toBeLessThanOrEqual((QUOTA / 2) * (elapsedS + BURST_S) + BATCH);
      expect(t.refused, `process ${i} refused`).toBeGreaterThan(0);
      expect(t.sample429?.body).toContain("over the project's ingest quota");
      expect(Number(t.sample429?.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(Number(t.sample429?.retryAfter)).toBeLessThanOrEqual(3);
      expect(ingest[i]!.logs.some((l) => l.includes('"code":"RATE_LIMITED"'))).toBe(true);
    }
    expect(accepted).toBeLessThanOrEqual(bound);
    // clearly below what two processes each enforcing the whole quota would allow
    expect(accepted).toBeLessThan(0.6 * 2 * perProcessFull);
    // and the quota is granted: both bursts and at least half of the refill over the window
    expect(accepted).toBeGreaterThanOrEqual(QUOTA * (BURST_S + (SEND_MS / 1000) * 0.5));

    // the processes count the same, and still divided by two throughout
    const texts = await Promise.all(ingest.map(metrics));
    for (const [i, text] of texts.entries()) {
      expect(metricValue(text, 'telltale_otlp_spans_accepted_total', { protocol: 'http' })).toBe(
        tallies[i]!.acceptedSpans,
      );
      expect(metricValue(text, 'telltale_otlp_requests_total', { protocol: 'http', outcome: 'rate_limited' })).toBe(
        tallies[i]!.refused,
      );
      expect(metricValue(text, 'telltale_ingest_quota_share')).toBe(0.5);
    }
  });
});
