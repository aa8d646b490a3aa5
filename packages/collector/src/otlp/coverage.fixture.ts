/**
 * Test fixture (not shipped API): which kinds of value a decoded request
 * contains, so the round-trip tests can prove their random data covers them all.
 */
import type { AnyValue, KeyValue, OtlpTraceRequest } from './types.js';

export function coverage(req: OtlpTraceRequest, seen = new Set<string>()): Set<string> {
  const visit = (v: AnyValue, depth: number): void => {
    if (depth > 1) seen.add('nested');
    if (typeof v === 'string') {
      seen.add(
        v === ''
          ? 'string:empty'
          : v.length > 50_000
            ? 'string:huge'
            : /[^\x00-\x7f]/.test(v)
              ? 'string:unicode'
              : 'string',
      );
    } else if (typeof v === 'bigint') {
      seen.add(
        v < -(2n ** 53n) ? 'int:below-2^53' : v > 2n ** 53n ? 'int:above-2^53' : v < 0n ? 'int:negative' : 'int',
      );
    } else if (typeof v === 'number')
      seen.add(Number.isNaN(v) ? 'double:NaN' : Number.isFinite(v) ? 'double' : 'double:infinite');
    else if (typeof v === 'boolean') seen.add('bool');
    else if (v === null) seen.add('null');
    else if (v instanceof Uint8Array) seen.add('bytes');
    else if (Array.isArray(v)) {
      seen.add('array');
      for (const item of v) visit(item, depth + 1);
    } else {
      seen.add('kvlist');
      for (const kv of v.kvlist) visit(kv.value, depth + 1);
    }
  };
  const visitAll = (kvs: KeyValue[]): void => kvs.forEach((kv) => visit(kv.value, 1));
  for (const rs of req.resourceSpans) {
    visitAll(rs.resource.attributes);
    for (const ss of rs.scopeSpans) {
      visitAll(ss.scope.attributes);
      for (const span of ss.spans) {
        visitAll(span.attributes);
        span.events.forEach((e) => visitAll(e.attributes));
        span.links.forEach((l) => visitAll(l.attributes));
        if (span.events.length > 0) seen.add('span:event');
        if (span.links.length > 0) seen.add('span:link');
        if (span.parentSpanId !== '') seen.add('span:parent');
        if (span.kind === 0) seen.add('span:kind-unspecified');
        if (span.startTimeUnixNano === 2n ** 64n - 1n) seen.add('span:max-time');
        if (span.status.message !== '') seen.add('span:status-message');
      }
    }
  }
  return seen;
}

export const EXPECTED_COVERAGE = [
  'nested',
  'string',
  'string:empty',
  'string:huge',
  'string:unicode',
  'int',
  'int:negative',
  'int:below-2^53',
  'int:above-2^53',
  'double',
  'bool',
  'null',
  'bytes',
  'array',
  'kvlist',
  'span:event',
  'span:link',
  'span:parent',
  'span:kind-unspecified',
  'span:max-time',
  'span:status-message',
];
