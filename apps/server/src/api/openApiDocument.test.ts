import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AlertService } from '@telltale/alerts';
import { Analytics } from '@telltale/analytics';
import { API_ROUTES } from '@telltale/api-contract';
import type { Store } from '@telltale/store';
import type { Router } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiApp, createApiRouter } from './createApiApp.js';
import { toOpenApiPath } from './openApiDocument.js';

interface Layer {
  route?: { path: string; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
}

/** Every method + path the express router actually serves, nested routers included. */
function expressRoutes(router: Router): string[] {
  const out: string[] = [];
  const walk = (stack: readonly Layer[]): void => {
    for (const layer of stack) {
      if (layer.route !== undefined) {
        for (const [method, on] of Object.entries(layer.route.methods))
          if (on && method !== '_all') out.push(`${method} ${layer.route.path}`);
      } else if (layer.handle?.stack !== undefined) walk(layer.handle.stack);
    }
  };
  walk((router as unknown as { stack: Layer[] }).stack);
  return out.sort();
}

// Route registration touches neither storage, analytics nor alerts; the document route neither.
const opts = {
  store: {} as Store,
  analytics: {} as Analytics,
  alerts: {} as AlertService,
  onInternalError: (): void => undefined,
};

let server: Server;
interface Operation {
  parameters: Array<{ name: string; in: string; required: boolean; schema: Record<string, unknown> }>;
  responses: Record<string, { content?: { 'application/json': { schema: Record<string, unknown> } } }>;
  requestBody?: { content: { 'application/json': { schema: Record<string, unknown> } } };
}
let doc: { openapi: string; paths: Record<string, Record<string, Operation>> };

beforeAll(async () => {
  server = createServer(createApiApp(opts));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/openapi.json`);
  expect(res.status).toBe(200);
  doc = (await res.json()) as typeof doc;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('GET /api/v1/openapi.json', () => {
  it('documents every route the express router serves, and nothing else', () => {
    const served = expressRoutes(createApiRouter(opts).router);
    expect(served.length).toBeGreaterThan(5);
    expect(served).toContain('get /reliability/summary');
    const documented = Object.entries(doc.paths)
      .flatMap(([path, ops]) => Object.keys(ops).map((method) => `${method} ${path}`))
      .sort();
    expect(documented).toEqual(
      served.map((r) => r.replace(/ (.*)$/, (_m, p: string) => ` ${toOpenApiPath(p)}`)).sort(),
    );
    expect(doc.openapi).toBe('3.1.0');
  });

  it('describes the parameters with the validation schemas', () => {
    const summary = doc.paths['/reliability/summary']!.get!;
    const byName = new Map(summary.parameters.map((p) => [p.name, p]));
    expect([...byName.keys()].sort()).toEqual([
      'agent',
      'attr.{key}',
      'from',
      'model',
      'service',
      'step',
      'to',
      'tool',
      'whatIfTarget',
    ]);
    expect(byName.get('whatIfTarget')!.schema).toMatchObject({
      type: 'number',
      exclusiveMinimum: 0,
      maximum: 1,
      default: 0.99,
    });
    expect(byName.get('from')!.required).toBe(false);
    const run = doc.paths['/runs/{runId}']!.get!;
    expect(run.parameters).toEqual([expect.objectContaining({ name: 'runId', in: 'path', required: true })]);
  });
});

describe('responses', () => {
  it('gives every route a typed success answer from the contract', () => {
    const operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => ({ route: `${method} ${path}`, op })),
    );
    expect(operations.length).toBe(Object.keys(API_ROUTES).length);
    for (const { route, op } of operations) {
      const success = Object.entries(op.responses).filter(([status]) => status.startsWith('2'));
      expect(success, route).toHaveLength(1);
      const schema = success[0]![1].content!['application/json'].schema;
      expect(schema.type, route).toBe('object');
      expect(Object.keys(schema.properties as object).length, route).toBeGreaterThan(0);
    }
  });

  it('describes the wire form: decimal nanosecond strings, 201 for a create', () => {
    const runs = doc.paths['/runs']!.get!.responses['200']!.content!['application/json'].schema as {
      properties: { runs: { items: { properties: Record<string, Record<string, unknown>> } } };
    };
    expect(runs.properties.runs.items.properties.startTimeUnixNano).toMatchObject({
      type: 'string',
      pattern: '^\\d+$',
    });
    expect(runs.properties.runs.items.properties.outcome).toMatchObject({ enum: ['success', 'failure', 'incomplete'] });
    expect(Object.keys(doc.paths['/admin/projects']!.post!.responses)).toContain('201');
    expect(doc.paths['/alerts/rules']!.post!.requestBody!.content['application/json'].schema).toMatchObject({
      type: 'object',
      required: expect.arrayContaining(['name', 'metric']),
    });
  });
});

/** Which route serves each public method of the Analytics facade. */
const SERVED_BY: Record<string, string> = {
  reliability: 'get /reliability/summary',
  compoundingCurve: 'get /reliability/curve',
  latencyPercentiles: 'get /latency/percentiles',
  latencySeries: 'get /latency/series',
  runHistogram: 'get /latency/histogram',
  tailAttribution: 'get /latency/tail',
  loops: 'get /loops',
  loopRate: 'get /loops/rate',
  runLoopFlags: 'get /loops/runs',
  failures: 'get /failures',
  failureSeries: 'get /failures/series',
  runCauses: 'get /failures/runs',
  cost: 'get /cost/summary',
  costBreakdown: 'get /cost/breakdown',
  costSeries: 'get /cost/series',
  prices: 'get /prices',
  setPrice: 'put /prices/{model}',
  deletePrice: 'delete /prices/{model}',
  listRuns: 'get /runs',
  getRun: 'get /runs/{runId}',
  getTraceSpans: 'get /traces/{traceId}',
  listSessions: 'get /sessions',
};

describe('the Analytics facade', () => {
  it('has a documented route for every method', () => {
    const methods = Object.getOwnPropertyNames(Analytics.prototype).filter((name) => name !== 'constructor');
    expect(methods.sort()).toEqual(Object.keys(SERVED_BY).sort());
    for (const route of Object.values(SERVED_BY)) {
      const [method, path] = route.split(' ') as [string, string];
      expect(doc.paths[path]?.[method], route).toBeDefined();
    }
  });
});
