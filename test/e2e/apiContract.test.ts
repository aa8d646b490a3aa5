import { WebhookReceiver } from '@telltale/alerts';
import { API_ROUTES, type ApiRouteKey } from '@telltale/api-contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TelltaleProcess } from './harness/TelltaleProcess.js';

/**
 * Every route the server documents, called for real against a server holding
 * the demo data, each answer checked against its route's response schema in
 * @telltale/api-contract (the schema the dashboard parses it with).
 */
const DEMO_RUNS = 300;

interface Call {
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
}

describe('the API answers what its contract says', () => {
  let telltale: TelltaleProcess;
  let receiver: WebhookReceiver;
  const called = new Set<string>();

  /** Calls a route of the contract; fails unless it answers 2xx with a body its response schema accepts. */
  async function call<K extends ApiRouteKey>(
    key: K,
    opts: Call = {},
  ): Promise<ReturnType<(typeof API_ROUTES)[K]['response']['parse']>> {
    const route = API_ROUTES[key];
    const path = route.path.replace(/:(\w+)/g, (_m, name: string) =>
      encodeURIComponent(opts.params?.[name] ?? `<missing ${name}>`),
    );
    const query = new URLSearchParams(opts.query ?? {}).toString();
    const res = await fetch(`${telltale.url}/api/v1${path}${query === '' ? '' : `?${query}`}`, {
      method: route.method.toUpperCase(),
      ...(opts.body === undefined
        ? {}
        : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(opts.body) }),
      signal: AbortSignal.timeout(30_000),
    });
    const body: unknown = await res.json();
    expect(res.status, `${key}: ${JSON.stringify(body)}`).toBeGreaterThanOrEqual(200);
    expect(res.status, `${key}: ${JSON.stringify(body)}`).toBeLessThan(300);
    const parsed = route.response.safeParse(body);
    if (!parsed.success)
      throw new Error(
        `${key} broke its contract: ${JSON.stringify(parsed.error.issues.slice(0, 3))}\n${JSON.stringify(body).slice(0, 2000)}`,
      );
    called.add(`${route.method} ${route.path.replace(/:(\w+)/g, '{$1}')}`);
    return parsed.data as ReturnType<(typeof API_ROUTES)[K]['response']['parse']>;
  }

  beforeAll(async () => {
    telltale = await TelltaleProcess.start({ args: ['--demo', '--alerts-allow-private', '127.0.0.0/8'] });
    receiver = await WebhookReceiver.start();
    const deadline = Date.now() + 30_000;
    while (!telltale.logs.some((l) => l.includes('demo data loaded'))) {
      if (Date.now() > deadline) throw new Error(`demo did not finish:\n${telltale.logs.join('\n')}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    for (;;) {
      const { body } = await telltale.getJson<{ runs: { success: number; failure: number } }>(
        '/api/v1/reliability/summary',
      );
      if (body.runs.success + body.runs.failure === DEMO_RUNS) break;
      if (Date.now() > deadline) throw new Error(`only ${body.runs.success + body.runs.failure} runs stored`);
      await new Promise((r) => setTimeout(r, 200));
    }
  });
  afterAll(async () => {
    await receiver?.close();
    await telltale?.dispose();
  });

  it('runs, traces, sessions, prices and every analytics route', { timeout: 120_000 }, async () => {
    expect((await call('get /health')).status).toBe('ok');
    await call('get /openapi.json');
    const page = await call('get /runs', { query: { limit: '20' } });
    expect(page.runs.length).toBe(20);
    const run = page.runs[0]!;
    const detail = await call('get /runs/:runId', { params: { runId: run.runId } });
    expect(detail.spans.length).toBe(run.spans);
    expect((await call('get /traces/:traceId', { params: { traceId: run.traceId } })).spans.length).toBeGreaterThan(0);
    await call('get /sessions', { query: { limit: '5' } });

    const { prices } = await call('get /prices');
    const model = prices[0]!.model;
    const set = await call('put /prices/:model', {
      params: { model },
      body: { inputPerMTok: 1, cachedInputPerMTok: 0.5, outputPerMTok: 2 },
    });
    expect(set.price).toMatchObject({ model, origin: 'override', inputPerMTok: 1 });
    expect((await call('delete /prices/:model', { params: { model } })).deleted).toBe(model);

    const runIds = page.runs.map((r) => r.runId).join(',');
    const summary = await call('get /reliability/summary');
    expect(summary.runs.success + summary.runs.failure).toBe(DEMO_RUNS);
    await call('get /reliability/curve');
    for (const groupBy of ['run', 'step']) await call('get /latency/percentiles', { query: { groupBy } });
    await call('get /latency/series', { query: { groupBy: 'tool' } });
    await call('get /latency/tail');
    await call('get /latency/histogram');
    const loops = await call('get /loops', { query: { limit: '10' } });
    expect(loops.detections.length).toBeGreaterThan(0);
    await call('get /loops/rate');
    await call('get /loops/runs', { query: { runIds } });
    expect((await call('get /failures')).failedRuns).toBeGreaterThan(0);
    await call('get /failures/series');
    await call('get /failures/runs', { query: { runIds } });
    expect((await call('get /cost/summary')).runs.total).toBe(DEMO_RUNS);
    await call('get /cost/breakdown', { query: { groupBy: 'tool' } });
    await call('get /cost/histogram');
    await call('get /cost/series');
  });

  it('span content, for one span and for a run', { timeout: 60_000 }, async () => {
    const runId = 'contract-content-run';
    const traceId = 'c0ffee00c0ffee00c0ffee00c0ffee00';
    const spanId = 'c0ffee00c0ffee01';
    const now = BigInt(Date.now()) * 1_000_000n;
    const str = (key: string, value: string) => ({ key, value: { stringValue: value } });
    const otlp = {
      resourceSpans: [
        {
          resource: { attributes: [str('service.name', 'contract')] },
          scopeSpans: [
            {
              scope: { name: 'contract' },
              spans: [
                {
                  traceId,
                  spanId,
                  name: 'execute_tool search',
                  kind: 1,
                  startTimeUnixNano: String(now),
                  endTimeUnixNano: String(now + 1_000_000n),
                  attributes: [
                    str('telltale.run.id', runId),
                    str('gen_ai.operation.name', 'execute_tool'),
                    str('gen_ai.tool.name', 'search'),
                    str('gen_ai.tool.call.arguments', '{"q":"refund"}'),
                    str('gen_ai.tool.call.result', '["r1"]'),
                  ],
                },
              ],
            },
          ],
        },
      ],
    };
    const sent = await fetch(`${telltale.url}/v1/traces`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(otlp),
      signal: AbortSignal.timeout(30_000),
    });
    expect(sent.status).toBe(200);
    const one = await call('get /runs/:runId/spans/:spanId/content', { params: { runId, spanId } });
    expect(one.content).toMatchObject({
      spanId,
      input: { toolArguments: { q: 'refund' } },
      output: { toolResult: ['r1'] },
      truncated: false,
    });
    const all = await call('get /runs/:runId/content', { params: { runId } });
    expect(all.spans.map((s) => s.spanId)).toEqual([spanId]);
    const index = await call('get /runs/:runId/content/spans', { params: { runId } });
    expect(index).toEqual({ spanIds: [spanId], limit: 10_000 });
    const { deleted } = await call('delete /admin/projects/:projectId/runs/:runId', {
      params: { projectId: 'default', runId },
    });
    expect(deleted).toEqual({ runId, spans: 1, contentSpans: 1 });
  });

  it('projects and keys (admin)', async () => {
    await call('get /admin/projects');
    const { project } = await call('post /admin/projects', { body: { id: 'contract-test', name: 'Contract test' } });
    expect(project).toMatchObject({ id: 'contract-test', maxSpansPerSecond: null });
    await call('get /admin/projects/:projectId', { params: { projectId: 'contract-test' } });
    expect(
      (
        await call('put /admin/projects/:projectId', {
          params: { projectId: 'contract-test' },
          body: { maxSpansPerSecond: 100 },
        })
      ).project.maxSpansPerSecond,
    ).toBe(100);
    const created = await call('post /admin/projects/:projectId/keys', {
      params: { projectId: 'contract-test' },
      body: { kind: 'read', name: 'ci' },
    });
    expect(created.secret.startsWith(created.key.prefix)).toBe(true);
    expect(
      (await call('get /admin/projects/:projectId/keys', { params: { projectId: 'contract-test' } })).keys.map(
        (k) => k.keyId,
      ),
    ).toEqual([created.key.keyId]);
    expect(
      (await call('post /admin/keys/:keyId/revoke', { params: { keyId: created.key.keyId } })).key.revokedAtMs,
    ).not.toBeNull();
  });

  it('alert rules, destinations and the delivery log', { timeout: 60_000 }, async () => {
    const { destination, secret } = await call('post /alerts/destinations', {
      body: { name: 'contract', url: receiver.url },
    });
    expect(secret).toMatch(/^whsec_/);
    const params = { destinationId: destination.id };
    expect((await call('get /alerts/destinations')).destinations.map((d) => d.id)).toContain(destination.id);
    await call('get /alerts/destinations/:destinationId', { params });
    expect(
      (await call('put /alerts/destinations/:destinationId', { params, body: { name: 'contract 2' } })).destination
        .name,
    ).toBe('contract 2');
    const test = await call('post /alerts/destinations/:destinationId/test', { params });
    expect(test.notification.kind).toBe('test');
    expect(
      (await call('post /alerts/destinations/:destinationId/rotate-secret', { params, body: { keep: 1 } })).destination
        .secretPrefixes,
    ).toHaveLength(2);

    const spec = {
      name: 'contract rule',
      metric: 'e2e_success',
      comparison: 'lt',
      threshold: 0.5,
      destinationIds: [destination.id],
    };
    const { rule } = await call('post /alerts/rules', { body: spec });
    const ruleParams = { ruleId: rule.id };
    expect((await call('get /alerts/rules')).rules.map((r) => r.id)).toContain(rule.id);
    await call('get /alerts/rules/:ruleId', { params: ruleParams });
    expect(
      (await call('put /alerts/rules/:ruleId', { params: ruleParams, body: { ...spec, threshold: 0.4 } })).rule
        .threshold,
    ).toBe(0.4);
    await call('get /alerts/state', { query: { ruleId: rule.id } });
    await call('get /alerts/history', { query: { limit: '10' } });

    const log = await call('get /alerts/notifications', { query: { destinationId: destination.id } });
    expect(log.notifications.map((n) => n.notificationId)).toContain(test.notification.notificationId);
    const notificationParams = { notificationId: test.notification.notificationId };
    expect(
      (await call('get /alerts/notifications/:notificationId', { params: notificationParams })).attempts.length,
    ).toBeGreaterThan(0);
    await call('post /alerts/notifications/:notificationId/redeliver', { params: notificationParams });

    expect((await call('delete /alerts/rules/:ruleId', { params: ruleParams })).deleted).toBe(rule.id);
    expect((await call('delete /alerts/destinations/:destinationId', { params })).deleted).toBe(destination.id);
  });

  it('left no documented route uncalled, and documents exactly the contract', async () => {
    const { body: doc } = await telltale.getJson<{ paths: Record<string, Record<string, unknown>> }>(
      '/api/v1/openapi.json',
    );
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => `${method} ${path}`),
    );
    const contract = Object.values(API_ROUTES).map((r) => `${r.method} ${r.path.replace(/:(\w+)/g, '{$1}')}`);
    expect(documented.sort()).toEqual(contract.sort());
    expect(documented.filter((route) => !called.has(route))).toEqual([]);
  });
});
