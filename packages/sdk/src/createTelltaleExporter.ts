import { ExportResultCode, getStringFromEnv } from '@opentelemetry/core';
import type { ExportResult } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import { TelltaleError, TelltaleErrorCode } from '@telltale/semconv';
import { shown } from './internal/arguments.js';
import { reportFault } from './internal/reportFault.js';

export const DEFAULT_ENDPOINT = 'http://127.0.0.1:4318';

const TRACES_PATH = '/v1/traces';

export interface TelltaleExporterOptions {
  /**
   * OTLP/HTTP base URL of the Telltale server (spans go to `${endpoint}/v1/traces`;
   * an endpoint already ending in `/v1/traces` is used as is).
   * Default: `TELLTALE_ENDPOINT` (likewise), else the standard `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`
   * (used as is) / `OTEL_EXPORTER_OTLP_ENDPOINT` (+ `/v1/traces`), else `http://127.0.0.1:4318`.
   * One that is not an http(s) URL is reported to the error handler, and no span is exported.
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
 * standard `OTEL_EXPORTER_OTLP_*` variables, the default endpoint. A failed
 * export's error names the URL and the HTTP status. Use it with your own
 * provider or NodeSDK, or take the pair from `telltaleSpanProcessors()`.
 */
export function createTelltaleExporter(opts: TelltaleExporterOptions = {}): SpanExporter {
  const url = tracesUrl(endpointSetting(opts.endpoint));
  if (url instanceof TelltaleError) {
    reportFault('config', url);
    return new RefusingExporter(url);
  }
  const apiKey = opts.apiKey ?? getStringFromEnv('TELLTALE_API_KEY');
  const headers: Record<string, string> = apiKey === undefined ? {} : { Authorization: `Bearer ${apiKey}` };
  return new UrlNamingExporter(new OTLPTraceExporter({ url, headers }), url);
}

/** Where the endpoint was set, and whether `/v1/traces` is appended to it. */
interface EndpointSetting {
  source: string;
  value: unknown;
  path: 'append' | 'append-unless-present' | 'as-is';
}

function endpointSetting(endpoint: unknown): EndpointSetting {
  if (endpoint !== undefined) return { source: 'endpoint', value: endpoint, path: 'append-unless-present' };
  const telltale = getStringFromEnv('TELLTALE_ENDPOINT');
  if (telltale !== undefined) return { source: 'TELLTALE_ENDPOINT', value: telltale, path: 'append-unless-present' };
  const traces = getStringFromEnv('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT');
  if (traces !== undefined) return { source: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', value: traces, path: 'as-is' };
  const otlp = getStringFromEnv('OTEL_EXPORTER_OTLP_ENDPOINT');
  if (otlp !== undefined) return { source: 'OTEL_EXPORTER_OTLP_ENDPOINT', value: otlp, path: 'append' };
  return { source: 'the default endpoint', value: DEFAULT_ENDPOINT, path: 'append' };
}

/** The URL spans are posted to, or the error saying why the setting is not an http(s) URL. */
function tracesUrl({ source, value, path }: EndpointSetting): string | TelltaleError {
  const url = typeof value === 'string' && URL.canParse(value) ? new URL(value) : undefined;
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    const example = typeof value === 'string' && !value.includes('://') ? `http://${value}` : DEFAULT_ENDPOINT;
    return new TelltaleError({
      code: TelltaleErrorCode.INVALID_CONFIG,
      message: `${source} ${shown(value)} is not an http(s) URL (expected e.g. "${example}"): spans are not exported`,
    });
  }
  if (path === 'as-is') return url.href;
  const base = url.pathname.replace(/\/+$/, '');
  url.pathname = path === 'append-unless-present' && base.endsWith(TRACES_PATH) ? base : `${base}${TRACES_PATH}`;
  return url.href;
}

/** The OTLP exporter, its failed exports' errors naming the URL and the HTTP status. */
class UrlNamingExporter implements SpanExporter {
  constructor(
    private readonly inner: SpanExporter,
    private readonly url: string,
  ) {}

  export(spans: ReadableSpan[], resultCallback: (result: ExportResult) => void): void {
    this.inner.export(spans, (result) => {
      if (result.code === ExportResultCode.SUCCESS) return resultCallback(result);
      const cause = result.error;
      const status = cause === undefined ? 'unknown error' : httpStatusOf(cause);
      const message = `export of ${spans.length} span${spans.length === 1 ? '' : 's'} to ${this.url} failed: ${status}`;
      resultCallback({
        code: result.code,
        error: new TelltaleError({ code: TelltaleErrorCode.UNAVAILABLE, message, cause }),
      });
    });
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }
}

/** `HTTP 404 Not Found` for an error answer (the OTLP exporter's error has the status as `code`), else the error's message. */
function httpStatusOf(error: Error): string {
  const { code } = error as { code?: unknown };
  if (typeof code !== 'number') return error.message;
  return error.message === '' ? `HTTP ${code}` : `HTTP ${code} ${error.message}`;
}

/** Stands in for an exporter whose endpoint is unusable: every export fails with the error reported at creation. */
class RefusingExporter implements SpanExporter {
  constructor(private readonly error: TelltaleError) {}

  export(_spans: ReadableSpan[], resultCallback: (result: ExportResult) => void): void {
    resultCallback({ code: ExportResultCode.FAILED, error: this.error });
  }

  shutdown(): Promise<void> {
    return Promise.resolve();
  }

  forceFlush(): Promise<void> {
    return Promise.resolve();
  }
}
