import { TraceFlags, type Attributes, type AttributeValue as OtelValue, type HrTime } from '@opentelemetry/api';
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import type { SpanRecord, StoreRows } from '@telltale/store';

type AttributeValue = StoreRows.AttributeValue;

function otelValue(v: AttributeValue): OtelValue | undefined {
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  return undefined; // the generator writes scalars only
}

function attributesOf(kvs: readonly { key: string; value: AttributeValue }[]): Attributes {
  const out: Attributes = {};
  for (const { key, value } of kvs) {
    const v = otelValue(value);
    if (v !== undefined) out[key] = v;
  }
  return out;
}

const hrTime = (ns: bigint): HrTime => [Number(ns / 1_000_000_000n), Number(ns % 1_000_000_000n)];

/** A generated span as the OTel SDK would hand it to an exporter. */
export function readableSpanOf(s: SpanRecord): ReadableSpan {
  return {
    name: s.name,
    kind: s.spanKind - 1, // OTLP numbers kinds from 1 (internal), the API from 0
    spanContext: () => ({ traceId: s.traceId, spanId: s.spanId, traceFlags: TraceFlags.SAMPLED }),
    ...(s.parentSpanId === ''
      ? {}
      : { parentSpanContext: { traceId: s.traceId, spanId: s.parentSpanId, traceFlags: TraceFlags.SAMPLED } }),
    startTime: hrTime(s.startTimeUnixNano),
    endTime: hrTime(s.endTimeUnixNano),
    duration: hrTime(s.endTimeUnixNano - s.startTimeUnixNano),
    status: { code: s.statusCode, ...(s.statusMessage === '' ? {} : { message: s.statusMessage }) },
    attributes: attributesOf(s.attributes),
    links: [],
    events: [],
    ended: true,
    resource: resourceFromAttributes(attributesOf(s.resourceAttributes)),
    instrumentationScope: { name: s.scopeName, version: s.scopeVersion },
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
  };
}

/**
 * Sends `spans` in batches of `batchSize` through the official OTLP/proto
 * exporter, batch i to `urls[i % urls.length]` (a balancer spreading a
 * fleet's exports); throws on the first export that fails.
 */
export async function exportDataset(
  urls: readonly string[],
  spans: readonly SpanRecord[],
  batchSize = 400,
): Promise<void> {
  const exporters = urls.map((url) => new OTLPTraceExporter({ url: `${url}/v1/traces`, timeoutMillis: 30_000 }));
  try {
    for (let i = 0, b = 0; i < spans.length; i += batchSize, b++) {
      const batch = spans.slice(i, i + batchSize).map(readableSpanOf);
      const result = await new Promise<ExportResult>((resolve) =>
        exporters[b % exporters.length]!.export(batch, resolve),
      );
      if (result.code !== ExportResultCode.SUCCESS)
        throw new Error(`export of batch ${b} to ${urls[b % urls.length]} failed: ${String(result.error)}`);
    }
  } finally {
    await Promise.all(exporters.map((e) => e.shutdown()));
  }
}
