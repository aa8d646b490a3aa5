import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChildService } from './harness/ChildService.js';
import { TelltaleProcess } from './harness/TelltaleProcess.js';
import { waitForRunSpans } from './harness/waitForRunSpans.js';

const APP = fileURLToPath(new URL('./fixtures/nodeSdkAgent.cjs', import.meta.url));

/**
 * An app on OpenTelemetry's NodeSDK with the HTTP instrumentation, Telltale
 * added through `telltaleSpanProcessors()` and configured only by OTEL_*
 * variables: the HTTP client and server spans made inside run() are in that run.
 */
describe('inside an existing NodeSDK setup', () => {
  let telltale: TelltaleProcess;
  beforeAll(async () => {
    telltale = await TelltaleProcess.start();
  });
  afterAll(async () => {
    await telltale.dispose();
  });

  it('HTTP client and server spans made inside run() belong to the run', async () => {
    const app = await ChildService.start<{ runId: string }>(APP, {
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${telltale.url}/v1/traces`,
      OTEL_SERVICE_NAME: 'weather-app',
      OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=e2e',
      OTEL_METRICS_EXPORTER: 'none',
      OTEL_LOGS_EXPORTER: 'none',
    });
    expect(await app.exited()).toBe(0);
    const { runId } = app.announced;

    const spans = await waitForRunSpans(telltale, runId, 4);
    const byKind = new Map(spans.map((s) => [s.kind, s]));
    const root = spans.find((s) => s.name === 'weather-agent')!;
    const step = spans.find((s) => s.name === 'get-weather')!;
    const client = byKind.get(3)!; // CLIENT
    const server = byKind.get(2)!; // SERVER
    expect(spans).toHaveLength(4);
    expect([root.stepKind, step.stepKind]).toEqual(['run', 'tool']);
    expect(client.parentSpanId).toBe(step.spanId);
    expect(server.parentSpanId).toBe(client.spanId);
    expect(client.attributes['http.method'] ?? client.attributes['http.request.method']).toBe('GET');
    for (const s of spans) {
      expect(s.attributes['telltale.run.id']).toBe(runId);
      expect(s.resourceAttributes['service.name']).toBe('weather-app');
      expect(s.resourceAttributes['deployment.environment']).toBe('e2e');
    }
  });
});
