import type { AttributeValue } from '../attributeValue.js';
import type { SpanRecord } from '../spans/SpanRecord.js';
import { makeSpan } from './makeSpan.js';

type KeyValue = { key: string; value: AttributeValue };

/** One attribute of every AttributeValue type, the awkward ones included. */
export const EVERY_VALUE_TYPE: readonly KeyValue[] = [
  { key: 'str', value: 'plain' },
  { key: 'empty', value: '' },
  { key: 'blank lines', value: 'a\n\nb\r\n\r\n' },
  { key: 'quote', value: `it's "quoted" \\ back\tslash` },
  { key: 'bool', value: true },
  { key: 'false', value: false },
  { key: 'int', value: 42n },
  { key: 'big', value: 2n ** 63n - 1n },
  { key: 'neg big', value: -(2n ** 63n) },
  { key: 'beyond 2^53', value: 9_007_199_254_740_993n },
  { key: 'double', value: 1.5 },
  { key: 'tiny', value: 5e-324 },
  { key: 'nan', value: Number.NaN },
  { key: 'inf', value: Number.NEGATIVE_INFINITY },
  { key: 'bytes', value: new Uint8Array([0, 1, 2, 253, 254, 255]) },
  { key: 'array', value: ['a', 1n, 2n ** 60n, 2.5, true, null, [new Uint8Array([9])]] },
  {
    key: 'kvlist',
    value: {
      kvlist: [
        { key: 'inner', value: 'v' },
        { key: 'n', value: { kvlist: [{ key: 'deep', value: 2n ** 62n }] } },
      ],
    },
  },
  { key: 'null', value: null },
  { key: 'émoji 👩‍💻', value: 'naïve 日本語 👍🏽 — 𝄞' },
];

/** Deterministic text of about `n` UTF-16 units (whole code points), mixing ASCII and multi-byte characters when `unicode`. */
function text(n: number, seed: number, unicode: boolean): string {
  const alphabet = Array.from(unicode ? 'aé日👍b\u0000z' : 'abcdefghijklmnopqrstuvwxyz0123456789-_.');
  let out = '';
  for (let i = 0; out.length < n; i++) out += alphabet[(i * 7 + seed) % alphabet.length];
  // never end on half a surrogate pair
  return out.length > n && /[\ud800-\udbff]/.test(out[n - 1]!) ? out.slice(0, n - 1) : out.slice(0, n);
}

/**
 * Spans covering what the Arrow encoder must carry exactly as the JSONEachRow
 * row does: empty and non-ASCII strings, empty, large and odd attribute maps
 * (duplicates, array-index keys, `__proto__`), a 5 MB value, null and set
 * costs, many events and links with every value type, nanosecond-exact and
 * far timestamps, extreme integers. Span ids sort in array order.
 */
export function edgeCaseSpans(projectId: string, startNs: bigint): SpanRecord[] {
  const at = (ns: bigint, i: number, overrides: Partial<SpanRecord>): SpanRecord =>
    makeSpan({
      projectId,
      startTimeUnixNano: ns,
      spanId: `s${String(i).padStart(4, '0')}`,
      runId: `run-${i % 3}`,
      ...overrides,
    });
  const spans: SpanRecord[] = [
    at(startNs, 0, {}),
    at(startNs, 1, {
      traceId: '',
      runId: '',
      serviceName: '',
      name: '',
      attributes: [{ key: '', value: '' }],
      resourceAttributes: [{ key: '', value: '' }],
    }),
    at(startNs, 2, {
      name: 'ünïcödé 👩‍👩‍👧‍👦 span',
      serviceName: '日本語サービス',
      stepKind: 'tool',
      stepName: 'поиск',
      toolName: 'search 🔍',
      statusMessage: text(47, 1, true),
      errorType: text(48, 2, true),
      model: text(200, 3, true),
      attributes: EVERY_VALUE_TYPE,
      resourceAttributes: [
        { key: 'service.name', value: '日本語サービス' },
        { key: 'host.id', value: 7n },
      ],
    }),
    at(startNs, 3, {
      attributes: Array.from({ length: 2000 }, (_, i) => ({
        key: `attr.${i}.${text(i % 40, i, i % 5 === 0)}`,
        value: i % 4 === 0 ? BigInt(i) : text(i % 90, i, i % 3 === 0),
      })),
      resourceAttributes: Array.from({ length: 300 }, (_, i) => ({
        key: `res.${i}`,
        value: i % 2 === 0 ? true : `v${i}`,
      })),
    }),
    at(startNs, 4, {
      attributes: [
        { key: 'huge', value: text(5 * 1024 * 1024, 4, false) },
        { key: 'after', value: 'x' },
      ],
    }),
    at(startNs, 5, {
      // duplicates, array-index keys and __proto__ take toTextMap's own path
      attributes: [
        { key: 'a', value: 1n },
        { key: '10', value: 'ten' },
        { key: 'b', value: 'x' },
        { key: 'a', value: 'now a string' },
        { key: '2', value: true },
        { key: '__proto__', value: 'proto' },
        { key: 'b', value: 2.5 },
        { key: '01', value: 'not an index' },
      ],
      resourceAttributes: [
        { key: 'r', value: 'first' },
        { key: 'r', value: 'second' },
        { key: '7', value: 'seven' },
      ],
    }),
    at(startNs, 6, { costUsd: 0 }),
    at(startNs, 7, {
      costUsd: 1.23456789e-7,
      inputTokens: Number.MAX_SAFE_INTEGER,
      outputTokens: 2 ** 32,
      cachedInputTokens: 2 ** 32 - 1,
    }),
    at(1_700_000_000_123_456_789n, 8, { endTimeUnixNano: 1_700_000_000_999_999_999n, costUsd: 123456.789 }),
    // the earliest the JSONEachRow path parses: its 'seconds.nanos' text needs 9 digits of seconds (1973-03-03)
    at(100_000_000_000_000_001n, 9, { endTimeUnixNano: 100_000_000_999_999_999n }),
    at(4_102_444_800_000_000_000n + 999_999_999n, 10, { endTimeUnixNano: 4_102_444_801_123_456_789n }),
    at(startNs, 11, {
      events: Array.from({ length: 50 }, (_, i) => ({
        timeUnixNano: startNs + BigInt(i) * 1_000_000_001n,
        name: i % 7 === 0 ? '' : `event ${i} ${text(i, i, i % 2 === 0)}`,
        attributes:
          i % 3 === 0
            ? []
            : i % 3 === 1
              ? EVERY_VALUE_TYPE
              : [
                  { key: 'k', value: 1n },
                  { key: 'k', value: 'dup' },
                ],
      })),
      links: Array.from({ length: 30 }, (_, i) => ({
        traceId: i % 4 === 0 ? '' : text(32, i, false),
        spanId: text(16, i + 1, false),
        traceState: i % 2 === 0 ? '' : `vendor=${text(i, i, true)}`,
        attributes: i % 2 === 0 ? [] : EVERY_VALUE_TYPE,
      })),
    }),
    at(startNs, 12, {
      events: [{ timeUnixNano: 1_700_000_000_123_456_789n, name: 'one', attributes: [] }],
      links: [
        { traceId: 'b'.repeat(32), spanId: 'c'.repeat(16), traceState: '', attributes: [{ key: 'x', value: null }] },
      ],
    }),
  ];
  // spans of one OTLP resource share its attributes list (as normaliseRequest hands them over)
  const sharedResource: KeyValue[] = [
    { key: 'service.name', value: 'shared' },
    { key: 'host.arch', value: 'amd64' },
    { key: 'pid', value: 4242n },
  ];
  const sharedOddResource: KeyValue[] = [
    { key: 'r', value: 'one' },
    { key: '5', value: true },
    { key: 'r', value: 'two' },
  ];
  for (let kind = 0; kind <= 5; kind++) {
    for (let status = 0; status <= 2; status++) {
      spans.push(
        at(startNs + BigInt(kind * 3 + status), 13 + kind * 3 + status, {
          resourceAttributes: kind < 3 ? sharedResource : kind < 5 ? sharedOddResource : [],
          spanKind: kind,
          statusCode: status,
          isRunRoot: status === 1,
          sideEffect: kind % 2 === 1,
          attempt: kind === 5 ? 65_535 : kind,
          droppedAttributesCount: status === 2 ? 2 ** 32 - 1 : status,
          droppedEventsCount: kind,
          droppedLinksCount: kind * status,
          costUsd: status === 0 ? null : kind + status / 10,
          runOutcome: status === 2 ? 'failure' : '',
        }),
      );
    }
  }
  return spans;
}
