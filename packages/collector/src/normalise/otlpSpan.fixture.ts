import type { OtlpSpan, OtlpTraceRequest } from '../otlp/types.js';

/** The normalise tests' clock. */
export const NOW_MS = Date.UTC(2026, 10, 25, 12);
export const NOW_NS = BigInt(NOW_MS) * 1_000_000n;

/** An internal span that starts at NOW and lasts 1 µs, status unset, with nothing dropped; `fields` set the rest. */
export function otlpSpan(
  fields: Pick<OtlpSpan, 'traceId' | 'spanId' | 'parentSpanId' | 'name' | 'attributes'> & Partial<OtlpSpan>,
): OtlpSpan {
  return {
    traceState: '',
    flags: 0,
    kind: 1,
    startTimeUnixNano: NOW_NS,
    endTimeUnixNano: NOW_NS + 1_000n,
    droppedAttributesCount: 0,
    events: [],
    droppedEventsCount: 0,
    links: [],
    droppedLinksCount: 0,
    status: { code: 0, message: '' },
    ...fields,
  };
}

/** One resource (with `service.name` when `service` is given), one scope, these spans. */
export function otlpRequest(spans: OtlpSpan[], service?: string): OtlpTraceRequest {
  return {
    resourceSpans: [
      {
        resource: {
          attributes: service === undefined ? [] : [{ key: 'service.name', value: service }],
          droppedAttributesCount: 0,
        },
        scopeSpans: [
          { scope: { name: 's', version: '', attributes: [], droppedAttributesCount: 0 }, spans, schemaUrl: '' },
        ],
        schemaUrl: '',
      },
    ],
  };
}
