import { readdirSync, readFileSync } from 'node:fs';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import {
  CONTENT_ATTRIBUTE_SOURCES,
  CONTENT_EVENT_BODY_KEYS,
  CONTENT_FLAT_MESSAGE_SOURCES,
  CONTENT_MESSAGE_EVENTS,
  MAX_RUN_ID_LENGTH,
  OpenInferenceAttr,
  OtelAttr,
  TelltaleAttr,
  VercelAiAttr,
  type ContentShape,
} from '@telltale/semconv';
import { spansArrowStream } from '@telltale/store/encode';
import { tableFromIPC } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { decodeExportPayload, encodeExportPayload } from '../ingest/exportPayload.js';
import { processExport, processExportObjects, type ProcessedExport } from '../ingest/processExport.js';
import { loopSignalsOf } from '../loops/loopSignals.js';
import { NestedUsage } from '../normalise/nestedUsage.js';
import { normaliseRequest } from '../normalise/normaliseRequest.js';
import { NOW_MS, NOW_NS, otlpRequest, otlpSpan } from '../normalise/otlpSpan.fixture.js';
import { DEFAULT_SPAN_LIMITS, type SpanLimits } from '../normalise/spanLimits.js';
import { TraceRuns } from '../normalise/traceRuns.js';
import { decodeTraceRequestJson } from '../otlp/jsonDecoder.js';
import { decodeTraceRequestProto } from '../otlp/protoDecoder.js';
import { Rng, randomSpans } from '../otlp/randomSpans.fixture.js';
import type { AnyValue, KeyValue, OtlpEvent, OtlpSpan } from '../otlp/types.js';
import { encodeTraceRequest } from './encodeTraceRequest.fixture.js';
import { processProtoExport } from './processProtoExport.js';

interface Options {
  limits?: SpanLimits;
  nowMs: number;
  keepContent?: boolean;
}

/** What processExport gives by the object path (decode, normaliseRequest, encodeExportPayload), with its own run indexes. */
function reference(body: Uint8Array, opts: Options): ProcessedExport {
  const request = decodeTraceRequestProto(body);
  const r = normaliseRequest(request, 'p', {
    ...(opts.limits === undefined ? {} : { limits: opts.limits }),
    nowMs: opts.nowMs,
    keepContent: opts.keepContent !== false,
    traceRuns: new TraceRuns(),
    nestedUsage: new NestedUsage(),
  });
  return {
    projectId: 'p',
    parts: r.spans.length === 0 ? [] : encodeExportPayload('p', r.spans, r.contents),
    spanCount: r.spans.length,
    rejectedSpans: r.rejectedSpans,
    rejectedBy: r.rejectedBy,
    cut: r.cut,
    errors: r.errors,
    content: r.content,
    loops: loopSignalsOf('p', r.spans),
  };
}

function fused(body: Uint8Array, opts: Options): ProcessedExport {
  return processProtoExport(body, 'p', {
    ...(opts.limits === undefined ? {} : { limits: opts.limits }),
    nowMs: opts.nowMs,
    keepContent: opts.keepContent !== false,
    traceRuns: new TraceRuns(),
    nestedUsage: new NestedUsage(),
  });
}

/** Runs both paths on `body` and expects the same payload bytes, counts, errors, content and loop signals. */
function expectSame(body: Uint8Array, opts: Options, label = ''): ProcessedExport {
  const want = reference(body, opts);
  const got = fused(body, opts);
  const { parts: wantParts, ...wantRest } = want;
  const { parts: gotParts, ...gotRest } = got;
  expect(gotRest, label).toEqual(wantRest);
  expect(Buffer.concat(gotParts).equals(Buffer.concat(wantParts)), `${label}: payload bytes differ`).toBe(true);
  return got;
}

const TRACE = '6b8efff798038103d269b633813fc60c';
let nextId = 1;
function span(attrs: KeyValue[], more: Partial<OtlpSpan> = {}): OtlpSpan {
  return otlpSpan({
    traceId: TRACE,
    spanId: (nextId++).toString(16).padStart(16, '0'),
    parentSpanId: 'aaaaaaaaaaaaaaaa',
    name: 'step 42',
    attributes: attrs,
    ...more,
  });
}
const kv = (key: string, value: AnyValue): KeyValue => ({ key, value });
const body = (spans: OtlpSpan[], service = 'svc'): Uint8Array => encodeTraceRequest(otlpRequest(spans, service));
const at = { nowMs: NOW_MS };

describe('processProtoExport against the object path', () => {
  it('gives the same bytes and results for 320 random requests from ProtobufTraceSerializer', () => {
    let spans = 0;
    for (let seed = 1; seed <= 320; seed++) {
      const bytes = ProtobufTraceSerializer.serializeRequest(randomSpans(new Rng(seed)))!;
      // half with a clock and limits that accept every time, half with the default range (most rejected)
      const opts: Options =
        seed % 2 === 0
          ? { nowMs: 1_750_000_000_000, limits: { ...DEFAULT_SPAN_LIMITS, maxAgeMs: 1e13, maxFutureMs: 1e13 } }
          : { nowMs: 1_750_000_000_000 };
      spans += expectSame(bytes, opts, `seed ${seed}`).spanCount;
    }
    expect(spans).toBeGreaterThan(500);
  });

  it('gives the same for the recorded interop payloads (Vercel AI SDK, OpenInference, OpenLLMetry, GenAI), content and all', () => {
    const dir = new URL('../../../../test/fixtures/interop/', import.meta.url);
    let spans = 0;
    let contents = 0;
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
      const requests = (JSON.parse(readFileSync(new URL(file, dir), 'utf8')) as { requests: unknown[] }).requests;
      for (const r of requests) {
        const request = decodeTraceRequestJson(JSON.stringify(r));
        const latest = request.resourceSpans
          .flatMap((rs) => rs.scopeSpans.flatMap((ss) => ss.spans))
          .reduce((m, s) => (s.startTimeUnixNano > m ? s.startTimeUnixNano : m), 0n);
        const opts = { nowMs: Number(latest / 1_000_000n) + 60_000 };
        for (const keepContent of [true, false]) {
          const out = expectSame(encodeTraceRequest(request), { ...opts, keepContent }, file);
          spans += out.spanCount;
          if (keepContent && out.parts.length > 0) {
            const payload = decodeExportPayload(Buffer.concat(out.parts));
            expect(payload.content !== undefined).toBe(out.content.kept > 0);
            contents += out.content.kept;
          }
        }
      }
    }
    expect(spans).toBeGreaterThan(20);
    expect(contents).toBeGreaterThan(5);
  });

  it('cuts attributes, values, events and links to the limits and counts them the same', () => {
    const limits: SpanLimits = {
      ...DEFAULT_SPAN_LIMITS,
      maxAttributes: 3,
      maxValueBytes: 8,
      maxEvents: 1,
      maxLinks: 1,
    };
    const event: OtlpEvent = {
      timeUnixNano: NOW_NS,
      name: 'e',
      attributes: [kv('a', 'x'.repeat(20)), kv('b', 1n), kv('c', true), kv('d', null)],
      droppedAttributesCount: 1,
    };
    const link = {
      traceId: TRACE,
      spanId: '1111111111111111',
      traceState: 't',
      attributes: [kv('l', 'long link value')],
      droppedAttributesCount: 0,
      flags: 1,
    };
    const out = expectSame(
      body(
        [
          span(
            [
              kv(TelltaleAttr.runId, 'run-with-a-long-id'),
              kv('b', 'é'.repeat(10)),
              kv('c', '€€€€€'),
              kv('d', 'dropped'),
            ],
            {
              events: [event, event],
              links: [link, link, link],
              droppedAttributesCount: 2,
            },
          ),
          span([
            kv('arr', ['0123456789', 1n, [true, 'abcdefghijk']]),
            kv('kv', { kvlist: [kv('x', 'yyyyyyyyyyyy')] }),
            kv('bytes', new Uint8Array(20)),
          ]),
        ],
        'a-service-name-longer-than-eight',
      ),
      { ...at, limits },
    );
    expect(out.cut).toEqual({ droppedAttributes: 2, truncatedValues: 10, droppedEvents: 1, droppedLinks: 2 });
    expect(out.errors.at(-1)).toContain('attributes dropped');
  });

  it('rejects the same spans for the same reasons, and caps a request', () => {
    const ok = span([]);
    const out = expectSame(
      body([
        span([], { traceId: '' }),
        span([], { traceId: '0'.repeat(32) }),
        span([], { spanId: '' }),
        span([], { spanId: '0'.repeat(16) }),
        span([], { startTimeUnixNano: 0n }),
        span([], { endTimeUnixNano: NOW_NS - 1n }),
        span([], { startTimeUnixNano: NOW_NS - 40n * 86_400_000_000_000n }),
        span([], {
          startTimeUnixNano: NOW_NS + 2n * 3_600_000_000_000n,
          endTimeUnixNano: NOW_NS + 2n * 3_600_000_000_000n,
        }),
        span([], { startTimeUnixNano: 2n ** 64n - 1n, endTimeUnixNano: 2n ** 64n - 1n }),
        ok,
        span([], { parentSpanId: '0'.repeat(16) }),
      ]),
      { ...at, limits: { ...DEFAULT_SPAN_LIMITS, maxSpansPerRequest: 10 } },
    );
    expect(out.rejectedBy).toEqual({ overRequestLimit: 1, invalid: 6, outOfTimeRange: 3 });
    expect(out.errors.length).toBe(5);
  });

  it('writes every attribute value kind, and lists a JS object would reorder, as the object path does', () => {
    const many = Array.from({ length: 140 }, (_, i) => kv(`k${i}`, i));
    const out = expectSame(
      body([
        span([
          kv('s', 'text'),
          kv('b', false),
          kv('i', -(2n ** 63n)),
          kv('j', 2n ** 60n),
          kv('d', 0.1),
          kv('nan', NaN),
          kv('inf', -Infinity),
          kv('n', null),
          kv('e', ''),
          kv('bytes', Uint8Array.of(1, 2, 255)),
        ]),
        span([kv('dup', 'first'), kv('x', 1n), kv('dup', 'second')]),
        span([kv('b', 'x'), kv('10', 'index'), kv('2', 'two')]),
        span([kv('__proto__', 'p'), kv('a', 'b')]),
        span(many),
        span([
          kv(OtelAttr.genAiInputTokens, '12'),
          kv(OtelAttr.genAiOutputTokens, 3.7),
          kv(TelltaleAttr.stepAttempt, 2n ** 40n),
        ]),
      ]),
      at,
    );
    expect(out.spanCount).toBe(6);
  });

  it('copies valid UTF-8 as it is and decodes invalid UTF-8 as the object path does (U+FFFD), cut on a character', () => {
    const limits: SpanLimits = { ...DEFAULT_SPAN_LIMITS, maxValueBytes: 5 };
    const raw = (hex: string) => Buffer.from(hex, 'hex');
    // a span with hand-made invalid UTF-8 in a value, the trace state and the status message
    const s = span([kv('v', 'placeholder-1'), kv('w', 'placeholder-2')], {
      traceState: 'placeholder-3',
      status: { code: 2, message: 'placeholder-4' },
    });
    const bytes = Buffer.from(body([s, span([kv('bom', '\ufeffabc'), kv('emoji', '😀😀'), kv('mixed', 'aé€😀')])]));
    const swap = (from: string, to: Buffer): Buffer => {
      const i = bytes.indexOf(from);
      expect(i).toBeGreaterThan(0);
      to.copy(bytes, i); // same length, so the framing holds
      return bytes;
    };
    swap('placeholder-1', raw('ff616263fe646566c0af6768')); // 13 bytes
    swap('placeholder-2', raw('e282ace282ace282ace2828a')); // ends in a broken sequence
    swap('placeholder-3', raw('eda080eda080eda08061')); // surrogates encoded: invalid
    swap('placeholder-4', raw('f09f9880f09f9880f09f98')); // truncated emoji
    for (const l of [limits, DEFAULT_SPAN_LIMITS]) expectSame(bytes, { ...at, limits: l });
  });

  it('writes keys of invalid UTF-8 as their text, and finds duplicates by text, not by bytes', () => {
    const raw = (hex: string) => Buffer.from(hex, 'hex');
    const spans = () => [
      // two keys whose different invalid bytes decode to the same text ('k\ufffd'): a duplicate for the object path
      span([kv('kA', 'first'), kv('b', 1n), kv('kB', 'second')]),
      span([kv('kC', true), kv('ok', 'x')]),
      // the same key bytes span after span, and a valid key that decodes to the same text as an invalid one
      span([kv('kD', 2.5), kv('k\ufffd', 'valid')]),
      span([kv('kE', 'again')]),
    ];
    const bytes = Buffer.from(body(spans()));
    const swap = (from: string, to: Buffer): void => {
      const i = bytes.indexOf(from);
      expect(i).toBeGreaterThan(0);
      to.copy(bytes, i); // same length, so the framing holds
    };
    swap('kA', raw('6bff'));
    swap('kB', raw('6bfe'));
    swap('kC', raw('6bc0'));
    swap('kD', raw('6bff'));
    swap('kE', raw('6bff'));
    const out = expectSame(bytes, at);
    expect(out.spanCount).toBe(4);
    // run twice: the second time every key is known by its bytes already
    expectSame(bytes, at);
  });

  it('derives steps, tools, usage and runs the same (conventions, nested usage, runs learned from the request)', () => {
    const run = kv(TelltaleAttr.runId, 'run-1');
    const root = span([run, kv(TelltaleAttr.stepKind, 'run')], { parentSpanId: '', name: 'agent' });
    const llm = span(
      [
        kv(OtelAttr.genAiOperationName, 'chat'),
        kv(OtelAttr.genAiRequestModel, 'gpt-4o'),
        kv(OtelAttr.genAiInputTokens, 10n),
        kv(OtelAttr.genAiOutputTokens, 5n),
        kv('telltale.cost.usd', 0.25),
      ],
      { parentSpanId: root.spanId },
    );
    const inner = span(
      [kv(OpenInferenceAttr.spanKind, 'llm'), kv('llm.token_count.prompt', 10n), kv('llm.token_count.completion', 5n)],
      { parentSpanId: llm.spanId },
    );
    const tool = span(
      [
        kv(OtelAttr.genAiOperationName, 'execute_tool'),
        kv(OtelAttr.genAiToolName, 'search'),
        kv('gen_ai.tool.call.arguments', '{"q":1}'),
      ],
      {
        parentSpanId: root.spanId,
        status: { code: 2, message: 'boom' },
        events: [
          {
            timeUnixNano: NOW_NS,
            name: 'exception',
            attributes: [kv(OtelAttr.exceptionType, 'Timeout')],
            droppedAttributesCount: 0,
          },
        ],
      },
    );
    const vercel = span([kv(VercelAiAttr.operationId, 'ai.toolCall'), kv('ai.toolCall.name', 'lookup')], {
      name: 'ai.toolCall 12345',
    });
    const untagged = span([], { traceId: TRACE, parentSpanId: tool.spanId });
    const out = expectSame(body([inner, llm, tool, vercel, untagged, root]), at);
    expect(new Set(decodeExportPayload(Buffer.concat(out.parts)).runIds)).toEqual(new Set(['run-1']));
    expect(out.loops.steps.length).toBeGreaterThan(0);
  });

  it('bounds a run id longer than the API addresses the same way, two long ids staying two runs', () => {
    const long = 'r'.repeat(300);
    const spans = [`${long}-a`, `${long}-b`].map((id) =>
      span([kv(TelltaleAttr.runId, id), kv(TelltaleAttr.stepKind, 'run')], { parentSpanId: '' }),
    );
    const out = expectSame(body(spans), at);
    const runIds = [...new Set(decodeExportPayload(Buffer.concat(out.parts)).runIds)];
    expect(runIds).toHaveLength(2);
    for (const id of runIds) {
      expect(id).toHaveLength(MAX_RUN_ID_LENGTH);
      expect(id).toMatch(/^r{239}~[0-9a-f]{16}$/);
    }
  });

  it('takes the content off spans: the same content rows, dropped when the project keeps none', () => {
    const choice = (body?: string): OtlpEvent => ({
      timeUnixNano: NOW_NS,
      name: 'gen_ai.choice',
      attributes: body === undefined ? [kv('index', 0n)] : [kv('message', body)],
      droppedAttributesCount: 0,
    });
    const spans = [
      span([
        kv(OtelAttr.genAiOperationName, 'chat'),
        kv(OtelAttr.genAiInputMessages, '[{"role":"user","parts":[{"type":"text","content":"hi"}]}]'),
        kv(TelltaleAttr.contentCapture, 'full'),
      ]),
      span(
        [
          kv(OtelAttr.genAiOperationName, 'chat'),
          kv(TelltaleAttr.contentCapture, 'full'),
          kv(TelltaleAttr.contentRedactions, 2n),
        ],
        { events: [choice(), { timeUnixNano: NOW_NS, name: 'other', attributes: [], droppedAttributesCount: 0 }] },
      ),
      span([kv(OtelAttr.genAiOperationName, 'chat')], { events: [choice('{"content":"answer"}')] }),
      span([
        kv(OpenInferenceAttr.inputValue, 'x'.repeat(300)),
        kv(`${OpenInferenceAttr.inputMessagesPrefix}0.message.role`, 'user'),
      ]),
      span([kv('plain', 'no content'), kv(TelltaleAttr.contentCapture, 'none')]),
    ];
    for (const keepContent of [true, false])
      for (const limits of [DEFAULT_SPAN_LIMITS, { ...DEFAULT_SPAN_LIMITS, maxContentBytes: 100 }])
        expectSame(body(spans), { ...at, keepContent, limits });
  });

  it('gives the same content for every convention, value type and size, cut to the content limit', () => {
    const words = (n: number, seed: number): string => {
      const w = ['plain', 'häagen', 'naïve', 'emoji 😀', '日本語', 'quote "x"', 'line\nbreak'];
      const out: string[] = [];
      for (let i = 0; out.join(' ').length < n; i++) out.push(w[(i * 7 + seed) % w.length]!);
      return out.join(' ').slice(0, n);
    };
    const valueOf = (shape: ContentShape, size: number, seed: number): string => {
      const text = words(size, seed);
      switch (shape) {
        case 'genAiMessages':
          return JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: text }] }]);
        case 'genAiSystemInstructions':
          return JSON.stringify([{ type: 'text', content: text }]);
        case 'chatMessages':
          return JSON.stringify([{ role: 'assistant', content: text }]);
        case 'vercelPrompt':
          return JSON.stringify({ system: 'be brief', prompt: text });
        case 'text':
        case 'toolArguments':
        case 'toolResult':
          return seed % 2 === 0 ? text : JSON.stringify({ query: text });
      }
    };
    const spans: OtlpSpan[] = [];
    let seed = 0;
    for (const size of [3, 300, 3000]) {
      // each named source alone, among other attributes, and with its side's other sources
      for (const source of CONTENT_ATTRIBUTE_SOURCES) {
        seed++;
        spans.push(
          span([
            kv(OtelAttr.genAiOperationName, 'chat'),
            kv(source.attribute, valueOf(source.shape, size, seed)),
            kv(TelltaleAttr.contentCapture, 'full'),
            kv('after', seed),
          ]),
        );
      }
      for (const side of ['input', 'output'] as const)
        spans.push(
          span(
            CONTENT_ATTRIBUTE_SOURCES.filter((s) => s.side === side).map((s, i) =>
              kv(s.attribute, valueOf(s.shape, size, seed + i)),
            ),
          ),
        );
      for (const flat of CONTENT_FLAT_MESSAGE_SOURCES)
        spans.push(
          span([
            kv(`${flat.prefix}1.${flat.contentField}`, words(size, seed)),
            kv(`${flat.prefix}0.${flat.roleField}`, 'user'),
            kv(`${flat.prefix}0.${flat.contentField}`, words(size, seed + 1)),
            kv(`${flat.prefix}x.${flat.roleField}`, 'odd'),
            kv(TelltaleAttr.contentRedactions, 3n),
          ]),
        );
      for (const [name, rule] of Object.entries(CONTENT_MESSAGE_EVENTS))
        for (const key of CONTENT_EVENT_BODY_KEYS)
          spans.push(
            span([kv(OtelAttr.genAiOperationName, 'chat')], {
              events: [
                {
                  timeUnixNano: NOW_NS,
                  name,
                  attributes: [kv(key, JSON.stringify({ role: rule.role, content: words(size, seed) }))],
                  droppedAttributesCount: 0,
                },
                { timeUnixNano: NOW_NS, name, attributes: [kv(key, words(size, seed + 2))], droppedAttributesCount: 0 },
                { timeUnixNano: NOW_NS, name: 'other', attributes: [], droppedAttributesCount: 0 },
              ],
            }),
          );
    }
    // message lists around the verbatim length (UTF-16 units), of multibyte text and surrogate pairs
    for (const source of CONTENT_ATTRIBUTE_SOURCES.filter(
      (s) => s.shape === 'genAiMessages' || s.shape === 'chatMessages',
    ))
      for (const units of [255, 256, 257])
        for (const fill of ['é', '😀', '日', 'a'])
          for (const extra of [0, 1]) {
            const frame = (content: string): string => JSON.stringify([{ role: 'user', content }]);
            let content = 'x'.repeat(extra);
            while (frame(content + fill).length <= units) content += fill;
            while (frame(content).length < units) content += 'y';
            spans.push(span([kv(source.attribute, frame(content))]));
          }
    // values that are not strings: JSON of the value (tool arguments as a map, numbers, arrays, bytes)
    spans.push(
      span([
        kv(OtelAttr.genAiToolCallArguments, { kvlist: [kv('city', 'Zürich'), kv('days', 3n)] }),
        kv(OtelAttr.genAiToolCallResult, [1.5, true, 'x']),
        kv(OpenInferenceAttr.inputValue, 42n),
        kv(OpenInferenceAttr.outputValue, new Uint8Array([1, 2, 250])),
        kv(TelltaleAttr.contentCapture, 7n),
        kv(TelltaleAttr.contentRedactions, 'two'),
      ]),
    );
    // more content attributes than the attribute limit, among more plain attributes than it too
    for (const args of [0, 5])
      spans.push(
        span([
          kv(OtelAttr.genAiOperationName, 'execute_tool'),
          kv(OtelAttr.genAiToolName, 'lookup'),
          ...Array.from({ length: 6 }, (_, i) => kv(`plain.${i}`, i)),
          ...Array.from({ length: 6 }, (_, i) =>
            i === args
              ? kv(OtelAttr.genAiToolCallArguments, '{"q":"tool arguments"}')
              : kv(`${OpenInferenceAttr.inputMessagesPrefix}${i}.message.content`, `m${i}`),
          ),
        ]),
      );
    const small = { ...DEFAULT_SPAN_LIMITS, maxAttributes: 4, maxValueBytes: 50 };
    let kept = 0;
    let truncated = 0;
    for (const keepContent of [true, false])
      for (const limits of [DEFAULT_SPAN_LIMITS, small])
        for (const maxContentBytes of [DEFAULT_SPAN_LIMITS.maxContentBytes, 4000, 1001, 100, 7]) {
          const out = expectSame(
            body(spans),
            { ...at, keepContent, limits: { ...limits, maxContentBytes } },
            `${maxContentBytes}`,
          );
          kept += out.content.kept;
          truncated += out.content.truncated;
        }
    expect(kept).toBeGreaterThan(spans.length);
    expect(truncated).toBeGreaterThan(spans.length);
  });

  it('reads a body that is a view at a non-zero byteOffset of a larger buffer', () => {
    const bytes = ProtobufTraceSerializer.serializeRequest(randomSpans(new Rng(11), 10))!;
    const slab = new Uint8Array(bytes.length + 37).fill(0xee);
    slab.set(bytes, 29);
    const view = slab.subarray(29, 29 + bytes.length);
    const opts = { nowMs: 1_750_000_000_000, limits: { ...DEFAULT_SPAN_LIMITS, maxAgeMs: 1e13, maxFutureMs: 1e13 } };
    const out = expectSame(view, opts);
    expect(out.spanCount).toBeGreaterThan(0);
    expect(Buffer.concat(fused(view, opts).parts).equals(Buffer.concat(fused(bytes, opts).parts))).toBe(true);
  });

  it('reads rows back with apache-arrow as the object path wrote them', () => {
    const bytes = ProtobufTraceSerializer.serializeRequest(randomSpans(new Rng(7), 20))!;
    const opts = { nowMs: 1_750_000_000_000, limits: { ...DEFAULT_SPAN_LIMITS, maxAgeMs: 1e13, maxFutureMs: 1e13 } };
    const got = decodeExportPayload(Buffer.concat(fused(bytes, opts).parts)).message;
    const want = decodeExportPayload(Buffer.concat(reference(bytes, opts).parts)).message;
    const read = (m: Uint8Array) => tableFromIPC(Buffer.concat(spansArrowStream([m])));
    const table = read(got);
    expect(table.numRows).toBeGreaterThan(3);
    const rows = (t: typeof table) =>
      t.toArray().map((r) => JSON.stringify(r, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)));
    expect(rows(table)).toEqual(rows(read(want)));
  });
});

describe('processExport with protobuf bodies the fused path refuses', () => {
  function outcome(run: () => ProcessedExport): string {
    try {
      const r = run();
      return `ok ${Buffer.concat(r.parts).toString('base64')} ${JSON.stringify({ ...r, parts: undefined, loops: r.loops.steps.length })}`;
    } catch (err) {
      return `error ${(err as { code?: string }).code} ${(err as Error).message}`;
    }
  }
  const job = (b: Uint8Array) => ({ body: b, encoding: 'proto' as const, projectId: 'p', nowMs: 1_750_000_000_000 });
  const limits = { ...DEFAULT_SPAN_LIMITS, maxAgeMs: 1e13, maxFutureMs: 1e13 };

  it('truncated at every byte offset: the same error (or the same result) as the object path', () => {
    let bytes: Uint8Array = new Uint8Array(0);
    for (let seed = 1; bytes.length < 2000 || bytes.length > 6000; seed++)
      bytes = ProtobufTraceSerializer.serializeRequest(randomSpans(new Rng(seed), 3))!;
    let errors = 0;
    for (let k = 0; k < bytes.length; k++) {
      const b = bytes.subarray(0, k);
      const want = outcome(() => processExportObjects(job(b), limits));
      expect(
        outcome(() => processExport(job(b), limits)),
        `offset ${k}`,
      ).toBe(want);
      expect(outcome(() => fused(b, { nowMs: 1_750_000_000_000, limits })).startsWith('error'), `offset ${k}`).toBe(
        want.startsWith('error'),
      );
      if (want.startsWith('error')) errors++;
    }
    expect(errors).toBeGreaterThan(bytes.length / 2);
  });

  it('random corruption: the same error or the same result as the object path', () => {
    const rng = new Rng(99);
    let base: Uint8Array = new Uint8Array(0);
    for (let seed = 1; base.length < 1000 || base.length > 8000; seed++)
      base = ProtobufTraceSerializer.serializeRequest(randomSpans(new Rng(seed), 3))!;
    let failures = 0;
    for (let i = 0; i < 1500; i++) {
      const buf = Uint8Array.from(base);
      for (let n = rng.int(1, 4); n > 0; n--) buf[rng.int(0, buf.length - 1)] = rng.int(0, 255);
      const want = outcome(() => processExportObjects(job(buf), limits));
      expect(outcome(() => processExport(job(buf), limits))).toBe(want);
      if (want.startsWith('error')) failures++;
    }
    expect(failures).toBeGreaterThan(100);
  });
});
