import { describe, expect, it } from 'vitest';
import { encodeSpanRecordBatch } from '../../spans/arrow/encodeSpanRecordBatch.js';
import type { SpanRecord } from '../../spans/SpanRecord.js';
import { edgeCaseSpans } from '../../testing/edgeCaseSpans.js';
import { makeSpan } from '../../testing/makeSpan.js';
import { factSpanOf, type FactSpan } from './FactSpan.js';
import { readFactSpans } from './readFactSpans.js';

/** A read span as a plain object: the columns few spans need are getters, read when asked for. */
const asPlain = (s: FactSpan): FactSpan => ({
  ...s,
  name: s.name,
  serviceName: s.serviceName,
  errorType: s.errorType,
  runOutcome: s.runOutcome,
  toolName: s.toolName,
  toolArgsHash: s.toolArgsHash,
  stateHash: s.stateHash,
  outputHash: s.outputHash,
  sessionId: s.sessionId,
});

const base = (over: Partial<SpanRecord>): SpanRecord =>
  makeSpan({ startTimeUnixNano: 1_800_000_000_000_000_000n, stepKind: 'llm', ...over });

describe('readFactSpans', () => {
  it('reads from a spans batch exactly the fact spans of the records it was written from', () => {
    const spans = edgeCaseSpans('p1', 1_800_000_000_000_000_000n).map((s, i) => ({ ...s, runId: `run-${i % 3}` }));
    const read = readFactSpans(encodeSpanRecordBatch(spans));
    expect(read?.spans.map(asPlain)).toEqual(spans.map(factSpanOf));
    expect(read?.projectIds).toEqual(spans.map((s) => s.projectId));
    expect(read?.runIds).toEqual(spans.map((s) => s.runId));
  });

  it('keeps nulls, multibyte text, 64-bit times and the session sources in precedence order', () => {
    const spans = [
      base({
        costUsd: null,
        name: 'plan ✓ 计划',
        model: 'm',
        inputTokens: 2 ** 40 + 3,
        startTimeUnixNano: 2n ** 62n + 5n,
      }),
      base({ costUsd: 0.25, name: 'plan ✓ 计划', model: 'm', attributes: [{ key: 'session.id', value: 'oi' }] }),
      base({
        costUsd: Number.NaN,
        attributes: [
          { key: 'session.id', value: 'oi' },
          { key: 'gen_ai.conversation.id', value: '' },
          { key: 'traceloop.association.properties.session_id', value: 'tl' },
        ],
      }),
      base({
        attributes: [
          { key: 'traceloop.association.properties.session_id', value: 'tl' },
          { key: 'gen_ai.conversation.id', value: 'conv' },
        ],
      }),
      base({ isRunRoot: true, sideEffect: true, attempt: 65_535, statusCode: 2, parentSpanId: '' }),
    ];
    const read = readFactSpans(encodeSpanRecordBatch(spans));
    expect(read?.spans.map(asPlain)).toEqual(spans.map(factSpanOf));
    expect(read?.spans.map((s) => s.sessionId)).toEqual(['', 'oi', 'oi', 'conv', '']);
  });

  it('finds a session source named by the last row only, and none in a batch that names none', () => {
    const plain = Array.from({ length: 300 }, (_, i) =>
      base({ spanId: i.toString(16).padStart(16, '0'), attributes: [{ key: 'gen_ai.request.model', value: 'm' }] }),
    );
    const none = readFactSpans(encodeSpanRecordBatch(plain));
    expect(none?.spans.every((s) => s.sessionId === '')).toBe(true);
    const last = base({ spanId: 'f'.repeat(16), attributes: [{ key: 'gen_ai.conversation.id', value: 'late' }] });
    const read = readFactSpans(encodeSpanRecordBatch([...plain, last]));
    expect(read?.spans.map((s) => s.sessionId)).toEqual([...plain.map(() => ''), 'late']);
  });

  it('reads recurring words that share a length and their outer bytes, interleaved, each as itself', () => {
    const words = Array.from({ length: 300 }, (_, i) => `step-${String(i % 150).padStart(3, '0')}-x`);
    const spans = words.map((w, i) =>
      base({ spanId: i.toString(16).padStart(16, '0'), stepName: w, model: words[(i * 7) % 300] ?? '', name: w }),
    );
    const read = readFactSpans(encodeSpanRecordBatch(spans));
    expect(read?.spans.map((s) => [s.stepName, s.model, s.name])).toEqual(
      spans.map((s) => [s.stepName, s.model, s.name]),
    );
  });

  it('reads an empty batch as no spans, and a message of another layout as nothing', () => {
    expect(readFactSpans(encodeSpanRecordBatch([]))?.spans).toEqual([]);
    expect(readFactSpans(new Uint8Array(64))).toBeUndefined();
    const message = encodeSpanRecordBatch([base({})]);
    expect(readFactSpans(message.subarray(0, message.length - 8))).toBeUndefined();
  });
});
