import { fileURLToPath } from 'node:url';
import { context, propagation } from '@opentelemetry/api';
import { init, run, shutdown, tool, type TelltaleHandle } from '@telltale/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChildService } from './harness/ChildService.js';
import { listRuns } from './harness/interopApi.js';
import { TelltaleProcess } from './harness/TelltaleProcess.js';
import { waitForRunSpans } from './harness/waitForRunSpans.js';

const DOWNSTREAM = fileURLToPath(new URL('./fixtures/downstreamService.mjs', import.meta.url));

/**
 * An agent (this process: init + run) calls an inventory service in another
 * process over real HTTP with the real W3C propagators. The inventory never
 * calls run(); its spans are stamped from the baggage. It exports first, the
 * agent after: each agent run must still be ONE run with the inventory's spans.
 */
describe('run id propagation across processes over HTTP (W3C trace context + baggage)', () => {
  let telltale: TelltaleProcess;
  let agent: TelltaleHandle;
  const downstreams: ChildService<{ port: number }>[] = [];

  beforeAll(async () => {
    telltale = await TelltaleProcess.start();
    // init() takes its endpoint from the standard variable too; here it is explicit.
    agent = init({ service: 'order-agent-svc', endpoint: telltale.url, batch: { scheduledDelayMillis: 600_000 } });
  });
  afterAll(async () => {
    await shutdown({ timeoutMs: 5_000 });
    await Promise.all(downstreams.map((d) => d.stop()));
    await telltale.dispose();
  });

  async function agentRuns(port: number, count: number): Promise<{ runId: string; baggage: string }[]> {
    const out: { runId: string; baggage: string }[] = [];
    for (let i = 0; i < count; i++) {
      out.push(
        await run('order-agent', (r) =>
          tool('check-stock', { sku: `sku-${i}` }, async () => {
            // What fetch / http instrumentation does for an outgoing request.
            const headers: Record<string, string> = {};
            propagation.inject(context.active(), headers);
            const res = await fetch(`http://127.0.0.1:${port}/stock?sku=sku-${i}`, { headers });
            expect(res.status).toBe(200);
            await res.json();
            return { runId: r.runId, baggage: headers.baggage ?? '' };
          }),
        ),
      );
    }
    return out;
  }

  it.each([
    ['init() from @telltale/sdk, configured by OTEL_* variables', 'sdk', 'inventory-sdk'],
    ['plain OpenTelemetry plus RunIdSpanProcessor', 'plain', 'inventory-plain'],
  ])('downstream with %s: each run is one run holding its spans', async (_label, mode, service) => {
    const downstream = await ChildService.start<{ port: number }>(DOWNSTREAM, {
      DOWNSTREAM_MODE: mode,
      OTEL_EXPORTER_OTLP_ENDPOINT: telltale.url,
      OTEL_SERVICE_NAME: 'inventory-sdk',
      OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=e2e',
      DOWNSTREAM_TRACES_URL: `${telltale.url}/v1/traces`,
    });
    downstreams.push(downstream);
    const runs = await agentRuns(downstream.announced.port, 2);
    for (const r of runs) expect(r.baggage).toBe(`telltale.run.id=${r.runId}`);

    // The downstream exports first: its spans are stored under the run ids before any run root exists.
    const flushed = await fetch(`http://127.0.0.1:${downstream.announced.port}/flush`, { method: 'POST' });
    expect(flushed.status).toBe(204);
    for (const r of runs) {
      const early = await waitForRunSpans(telltale, r.runId, 2);
      expect(early.map((s) => s.name).sort()).toEqual(['GET /stock', 'inventory.lookup']);
    }

    expect(agent.installed).toBe(true);
    await agent.forceFlush({ timeoutMs: 10_000 });

    for (const r of runs) {
      const spans = await waitForRunSpans(telltale, r.runId, 4);
      expect(spans.map((s) => s.name).sort()).toEqual(['GET /stock', 'check-stock', 'inventory.lookup', 'order-agent']);
      expect(new Set(spans.map((s) => s.traceId)).size).toBe(1);
      for (const s of spans) expect(s.attributes['telltale.run.id']).toBe(r.runId);
      const byName = new Map(spans.map((s) => [s.name, s]));
      expect(byName.get('GET /stock')!.parentSpanId).toBe(byName.get('check-stock')!.spanId);
      expect(byName.get('inventory.lookup')!.parentSpanId).toBe(byName.get('GET /stock')!.spanId);
      expect(byName.get('GET /stock')!.kind).toBe(2); // SERVER
      expect(byName.get('GET /stock')!.resourceAttributes['service.name']).toBe(service);
      expect(byName.get('order-agent')!.resourceAttributes['service.name']).toBe('order-agent-svc');
      if (mode === 'sdk') expect(byName.get('GET /stock')!.resourceAttributes['deployment.environment']).toBe('e2e');
    }
    const stored = (await listRuns(telltale)).filter((x) => runs.some((r) => r.runId === x.runId));
    expect(stored.map((x) => [x.runId, x.name, x.service, x.spans, x.outcome]).sort()).toEqual(
      runs.map((r) => [r.runId, 'order-agent', 'order-agent-svc', 4, 'success']).sort(),
    );
    // No stray run keyed by the trace id of an agent run.
    const traceIds = new Set(
      (await Promise.all(runs.map((r) => waitForRunSpans(telltale, r.runId, 4)))).map((s) => s[0]!.traceId),
    );
    expect((await listRuns(telltale)).filter((x) => traceIds.has(x.runId))).toEqual([]);
  });
});
