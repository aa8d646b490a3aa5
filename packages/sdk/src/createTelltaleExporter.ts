import { getStringFromEnv } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';

export const DEFAULT_ENDPOINT = 'http://127.0.0.1:4318';

export interface TelltaleExporterOptions {
  /**
   * OTLP/HTTP base URL of the Telltale server (spans go to `${endpoint}/v1/traces`).
   * Default: `TELLTALE_ENDPOINT`, else the standard `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`
   * (used as is) / `OTEL_EXPORTER_OTLP_ENDPOINT` (+ `/v1/traces`), else `http://127.0.0.1:4318`.
   */
  endpoint?: string;
  /**
   * Sent as `Authorization: Bearer <apiKey>`. Default: `TELLTALE_API_KEY`. Headers from
   * `OTEL_EXPORTER_OTLP_HEADERS` / `OTEL_EXPORTER_OTLP_TRACES_HEADERS` are sent too; this one wins.
   */
  apiKey?: string;
}

/**
 * The OTLP/HTTP protobuf exporter that sends spans to Telltale. Settings come
 * from, in order: the options, `TELLTALE_ENDPOINT` / `TELLTALE_API_KEY`, the
 * standard `OTEL_EXPORTER_OTLP_*` variables (read by the OTel exporter
 * itself), the default endpoint. Use it with your own provider or NodeSDK,
 * or take the pair from `telltaleSpanProcessors()`.
 */
export function createTelltaleExporter(opts: TelltaleExporterOptions = {}): SpanExporter {
  const endpoint = opts.endpoint ?? getStringFromEnv('TELLTALE_ENDPOINT');
  const apiKey = opts.apiKey ?? getStringFromEnv('TELLTALE_API_KEY');
  const otelEndpoint =
    getStringFromEnv('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT') ?? getStringFromEnv('OTEL_EXPORTER_OTLP_ENDPOINT');
  // With no url, the OTel exporter resolves the OTEL_EXPORTER_OTLP_* endpoints itself.
  const url =
    endpoint !== undefined ? tracesUrl(endpoint) : otelEndpoint !== undefined ? undefined : tracesUrl(DEFAULT_ENDPOINT);
  const headers: Record<string, string> = apiKey === undefined ? {} : { Authorization: `Bearer ${apiKey}` };
  return new OTLPTraceExporter(url === undefined ? { headers } : { url, headers });
}

function tracesUrl(endpoint: string): string {
  return `${endpoint.replace(/\/+$/, '')}/v1/traces`;
}
