import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { SpanStatusCode } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { StepKind, TelltaleAttr } from '@telltale/semconv';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  installTarballs,
  packAll,
  REPO_ROOT,
  tarballProblems,
  unpack,
  type PackedPackage,
} from '../../scripts/package.mjs';
import { cleanEnv, InstalledTelltale } from './harness/InstalledTelltale.js';

// Telltale as a user gets it: the packed tarballs installed with npm into
// empty directories outside the repository (the server and, separately, an
// agent with only the SDK), the installed `telltale` bin started from there.
// npm fetches the third-party dependencies from the registry.

const INSTALL_MS = 5 * 60_000;
/** Packing, two installs and a server start, on a loaded machine. */
const SETUP_MS = 2 * INSTALL_MS + 120_000;
const POLL_MS = 30_000;
const OTEL_API_VERSION = '1.9.0';

const execFileAsync = promisify(execFile);

vi.setConfig({ testTimeout: 60_000, hookTimeout: SETUP_MS });

let work = '';
let packed: PackedPackage[] = [];
let server: InstalledTelltale | undefined;
let appDir = '';
let agentDir = '';

const tarball = (name: string): string => packed.find((p) => p.name === name)!.tarball;

beforeAll(async () => {
  work = realpathSync(mkdtempSync(join(tmpdir(), 'telltale-install-')));
  packed = await packAll(join(work, 'tarballs'));
  appDir = join(work, 'app');
  agentDir = join(work, 'agent');
  installTarballs(
    packed.map((p) => p.tarball),
    appDir,
    { timeoutMs: INSTALL_MS },
  );
  mkdirSync(agentDir);
  writeFileSync(join(agentDir, 'package.json'), JSON.stringify({ name: 'agent', private: true, type: 'module' }));
  installTarballs(
    [tarball('@telltale/sdk'), tarball('@telltale/semconv'), `@opentelemetry/api@${OTEL_API_VERSION}`],
    agentDir,
    { timeoutMs: INSTALL_MS },
  );
  server = await InstalledTelltale.start(
    join(appDir, 'node_modules/.bin/telltale'),
    ['--demo', '--port', '0', '--grpc-port', 'off', '--data-dir', join(work, 'data')],
    work,
  );
}, SETUP_MS);

afterAll(async () => {
  const code = await server?.stop();
  if (work !== '') rmSync(work, { recursive: true, force: true });
  expect(code, 'the installed server stops cleanly on SIGTERM').toBe(0);
}, 60_000);

async function getJson<T>(path: string): Promise<T> {
  const res = await fetch(`${server!.url}${path}`);
  expect(res.status, path).toBe(200);
  return (await res.json()) as T;
}

/** Polls `read` until `done` holds, for at most POLL_MS; returns the last value. */
async function pollUntil<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + POLL_MS;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe('the packed packages', () => {
  it('are publishable: manifests rewritten, LICENSE, exports present, every import declared', async () => {
    expect(packed.map((p) => p.name).sort()).toEqual([
      '@telltale/alerts',
      '@telltale/analytics',
      '@telltale/api-contract',
      '@telltale/collector',
      '@telltale/sdk',
      '@telltale/semconv',
      '@telltale/server',
      '@telltale/store',
    ]);
    // packAll already refused bad tarballs; this shows the check can fail.
    const bad = join(work, 'bad');
    mkdirSync(join(bad, 'package'), { recursive: true });
    writeFileSync(
      join(bad, 'package/package.json'),
      JSON.stringify({
        name: 'bad',
        version: '1.0.0',
        dependencies: { x: 'workspace:*' },
        exports: { '.': './index.js' },
      }),
    );
    writeFileSync(join(bad, 'package/index.js'), "import 'left-pad';\n");
    await execFileAsync('tar', ['czf', join(bad, 'bad.tgz'), '-C', bad, 'package']);
    const problems = await tarballProblems(join(bad, 'bad.tgz'));
    expect(problems).toEqual(
      expect.arrayContaining([
        'bad: package.json has no "license"',
        'bad: dependencies.x is still "workspace:*"',
        'bad: no LICENSE',
        'bad: index.js imports left-pad, which is not a dependency',
      ]),
    );
  });

  it('carry the dashboard inside @telltale/server and no path out of the package', () => {
    const root = unpack(tarball('@telltale/server'));
    try {
      expect(existsSync(join(root, 'dist/web/index.html'))).toBe(true);
      const startServer = readFileSync(join(root, 'dist/http/startServer.js'), 'utf8');
      expect(startServer).not.toMatch(/\.\.\/\.\.\/\.\.\//);
    } finally {
      rmSync(join(root, '..'), { recursive: true, force: true });
    }
  });

  it('resolve from the install, not from the repository', async () => {
    const script =
      "for (const p of ['@telltale/server', '@telltale/store', 'chdb']) console.log(import.meta.resolve(p));";
    const { stdout } = await execFileAsync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: appDir,
      env: cleanEnv(),
    });
    const resolved = stdout.trim().split('\n');
    expect(resolved).toHaveLength(3);
    for (const url of resolved) {
      expect(url.startsWith(`file://${appDir}/node_modules/`), url).toBe(true);
      expect(url).not.toContain(REPO_ROOT);
    }
  });
});

describe('telltale start from the installed package', () => {
  it('ingests spans from the official OTLP exporter and reports them', async () => {
    const service = `packaged-${randomUUID().slice(0, 8)}`;
    const provider = new BasicTracerProvider({
      resource: resourceFromAttributes({ 'service.name': service }),
      spanProcessors: [new SimpleSpanProcessor(new OTLPTraceExporter({ url: `${server!.url}/v1/traces` }))],
    });
    const tracer = provider.getTracer('package-install-test');
    for (const outcome of ['success', 'failure'] as const) {
      const runId = randomUUID();
      tracer.startActiveSpan(
        'answer',
        {
          attributes: {
            [TelltaleAttr.runId]: runId,
            [TelltaleAttr.stepKind]: StepKind.run,
            [TelltaleAttr.runOutcome]: outcome,
          },
        },
        (root) => {
          const step = tracer.startSpan('lookup', {
            attributes: {
              [TelltaleAttr.runId]: runId,
              [TelltaleAttr.stepKind]: StepKind.tool,
              [TelltaleAttr.stepName]: 'lookup',
            },
          });
          step.setStatus({ code: outcome === 'success' ? SpanStatusCode.OK : SpanStatusCode.ERROR });
          step.end();
          root.end();
        },
      );
    }
    await provider.forceFlush();
    await provider.shutdown();

    type Summary = { runs: { success: number; failure: number }; observed: { value: number } };
    const summary = await pollUntil(
      () => getJson<Summary>(`/api/v1/reliability/summary?service=${service}`),
      (s) => s.runs.success + s.runs.failure >= 2,
    );
    expect(summary.runs).toMatchObject({ success: 1, failure: 1 });
    expect(summary.observed.value).toBe(0.5);
    // The demo fleet (--demo) is there too, under its own services.
    const all = await getJson<Summary>('/api/v1/reliability/summary');
    expect(all.runs.success + all.runs.failure).toBeGreaterThan(2);
  });

  it('serves the dashboard and every asset its HTML references', async () => {
    const res = await fetch(`${server!.url}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await res.text();
    const refs = [...html.matchAll(/<(?:script|link)\b[^>]*\b(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(refs.filter((r) => r.endsWith('.js')).length).toBeGreaterThan(0);
    expect(refs.filter((r) => r.endsWith('.css')).length).toBeGreaterThan(0);
    for (const ref of refs) {
      const asset = await fetch(new URL(ref, server!.url));
      expect(asset.status, ref).toBe(200);
      const type = asset.headers.get('content-type') ?? '';
      if (ref.endsWith('.js')) expect(type, ref).toMatch(/^(text|application)\/javascript/);
      else if (ref.endsWith('.css')) expect(type, ref).toMatch(/^text\/css/);
      else if (ref.endsWith('.svg')) expect(type, ref).toMatch(/^image\/svg\+xml/);
      expect((await asset.arrayBuffer()).byteLength, ref).toBeGreaterThan(0);
    }
  });

  it('records a run from an agent project that installed only @telltale/sdk and @opentelemetry/api', async () => {
    const runId = randomUUID();
    const service = `sdk-agent-${runId.slice(0, 8)}`;
    writeFileSync(
      join(agentDir, 'agent.mjs'),
      `import { init, llm, run, shutdown, tool } from '@telltale/sdk';

init({ service: process.env.AGENT_SERVICE, endpoint: process.env.TELLTALE_ENDPOINT });
await run('answer-ticket', async (r) => {
  const hits = await tool('search_kb', { q: 'refund' }, (args) => [args.q]);
  await llm('draft', { model: 'gpt-4o-mini', provider: 'openai' }, (step) => {
    step.recordUsage({ inputTokens: 120, outputTokens: 30 });
    return 'reply: ' + hits.join(',');
  });
  r.setOutcome('success');
}, { runId: process.env.RUN_ID });
await shutdown();
console.log(import.meta.resolve('@telltale/sdk'));
`,
    );
    const { stdout } = await execFileAsync(process.execPath, ['agent.mjs'], {
      cwd: agentDir,
      env: cleanEnv({ AGENT_SERVICE: service, TELLTALE_ENDPOINT: server!.url, RUN_ID: runId }),
      timeout: 30_000,
    });
    expect(stdout.trim()).toBe(`file://${agentDir}/node_modules/@telltale/sdk/dist/index.js`);

    type Runs = { runs: { runId: string; service: string; outcome: string; steps: number; inputTokens: number }[] };
    const { runs } = await pollUntil(
      () => getJson<Runs>(`/api/v1/runs?service=${service}`),
      (r) => r.runs.some((x) => x.runId === runId),
    );
    expect(runs).toEqual([expect.objectContaining({ runId, service, outcome: 'success', inputTokens: 120 })]);
  });
});
