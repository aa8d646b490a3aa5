import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Metadata } from '@grpc/grpc-js';
import { OTLPTraceExporter as OtlpGrpcExporter } from '@opentelemetry/exporter-trace-otlp-grpc';
import { CompressionAlgorithm } from '@opentelemetry/otlp-exporter-base';
import { OtelAttr } from '@telltale/semconv';
import { generateText } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiRun } from './harness/interopApi.js';
import { InteropTracing } from './harness/InteropTracing.js';
import { runCli } from './harness/runCli.js';
import { TelltaleProcess } from './harness/TelltaleProcess.js';

async function createKey(dataDir: string, kind: 'ingest' | 'read'): Promise<string> {
  const { code, stdout, stderr } = await runCli([
    'keys',
    'create',
    '--project',
    'agents',
    '--kind',
    kind,
    '--data-dir',
    dataDir,
  ]);
  expect(code, stderr).toBe(0);
  return stdout.trim();
}

/** What docs/integrations/*.md tell users to configure, against a server that requires keys. */
describe('integrations with ingest keys (--auth keys): OTLP/HTTP headers and gRPC metadata', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'telltale-interop-keys-'));
  let telltale: TelltaleProcess;
  let readKey = '';

  beforeAll(async () => {
    expect((await runCli(['projects', 'create', 'agents', '--data-dir', dataDir])).code).toBe(0);
    const ingestKey = await createKey(dataDir, 'ingest');
    readKey = await createKey(dataDir, 'read');
    telltale = await TelltaleProcess.start({ dataDir, args: ['--auth', 'keys'] });

    // Vercel AI SDK over OTLP/HTTP with the Authorization header (docs/integrations/vercel-ai-sdk.md)
    const http = new InteropTracing(telltale.url, 'keyed-vercel', {
      headers: { Authorization: `Bearer ${ingestKey}` },
    });
    const model = new MockLanguageModelV3({
      modelId: 'mock-model',
      doGenerate: {
        content: [{ type: 'text', text: 'ok' }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: {
          inputTokens: { total: 5, noCache: 5, cacheRead: 0, cacheWrite: 0 },
          outputTokens: { total: 1, text: 1, reasoning: 0 },
        },
        warnings: [],
      },
    });
    await generateText({ model, prompt: 'hi', experimental_telemetry: { isEnabled: true, tracer: http.tracer('ai') } });
    await http.flush();
    await http.shutdown();

    // GenAI spans over OTLP/gRPC with the authorization metadata and gzip (docs/integrations/grpc.md)
    const metadata = new Metadata();
    metadata.set('authorization', `Bearer ${ingestKey}`);
    const grpc = new InteropTracing(telltale.url, 'keyed-genai', {
      exporter: new OtlpGrpcExporter({
        url: `http://${telltale.grpcAddress}`,
        metadata,
        compression: CompressionAlgorithm.GZIP,
      }),
    });
    grpc
      .tracer('app')
      .startActiveSpan(
        'invoke_agent keyed',
        { attributes: { [OtelAttr.genAiOperationName]: 'invoke_agent', [OtelAttr.genAiAgentName]: 'keyed' } },
        (span) => span.end(),
      );
    await grpc.flush();
    await grpc.shutdown();
  });
  afterAll(async () => {
    await telltale.dispose();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("stores both in the key's project, readable with its read key only", async () => {
    const res = await fetch(`${telltale.url}/api/v1/runs`, { headers: { authorization: `Bearer ${readKey}` } });
    expect(res.status).toBe(200);
    const { runs } = (await res.json()) as { runs: ApiRun[] };
    expect(runs.map((r) => [r.service, r.name, r.outcome]).sort()).toEqual([
      ['keyed-genai', 'invoke_agent keyed', 'success'],
      ['keyed-vercel', 'ai.generateText', 'success'],
    ]);
    expect((await fetch(`${telltale.url}/api/v1/runs`)).status).toBe(401);
  });
});
