import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AlertService } from '@telltale/alerts';
import type { Analytics } from '@telltale/analytics';
import type { Store } from '@telltale/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiApp } from './createApiApp.js';

/** A wait for the spool that holds every data read until `release` (a stuck drain). */
const waits: string[] = [];
let release: () => void = () => undefined;
const released = new Promise<void>((resolve) => {
  release = resolve;
});

let server: Server;
let base = '';

beforeAll(async () => {
  const app = createApiApp({
    store: { ping: () => Promise.resolve(true) } as unknown as Store,
    analytics: {} as Analytics,
    alerts: { listRules: () => Promise.resolve([]) } as unknown as AlertService,
    onInternalError: () => undefined,
    projectOf: () => 'proj-a',
    beforeRead: async (projectId) => {
      waits.push(projectId);
      await released;
    },
  });
  server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('the wait for acknowledged spans before a read', () => {
  it('holds the routes that read spans, with the caller’s project, and never health, the API document or alert settings', async () => {
    // the drain is stuck: these answer anyway
    expect((await fetch(`${base}/health`)).status).toBe(200);
    expect((await fetch(`${base}/openapi.json`)).status).toBe(200);
    const rules = await fetch(`${base}/alerts/rules`);
    expect({ status: rules.status, body: await rules.json() }).toEqual({ status: 200, body: { rules: [] } });
    expect(waits).toEqual([]);

    // a data read waits, for its project
    let answered = false;
    const runs = fetch(`${base}/runs`).then((res) => {
      answered = true;
      return res;
    });
    await expect.poll(() => waits).toEqual(['proj-a']);
    await new Promise((r) => setTimeout(r, 200));
    expect(answered).toBe(false);

    release();
    // the stub analytics cannot answer; what matters is that the request went on past the wait
    expect((await runs).status).toBeGreaterThanOrEqual(400);
    expect(answered).toBe(true);
  });
});
