import { OtelAttr, TelltaleAttr } from '@telltale/semconv';
import { describe, expect, it } from 'vitest';
import type { KeyValue, OtlpSpan } from '../otlp/types.js';
import { NestedUsage } from './nestedUsage.js';
import { normaliseRequest } from './normaliseRequest.js';
import { NOW_MS, NOW_NS, otlpRequest, otlpSpan } from './otlpSpan.fixture.js';

const TRACE = '33333333333333333333333333333333';

function span(
  spanId: string,
  parentSpanId: string,
  kind: string,
  usage?: { input: number; output: number; cost?: number },
): OtlpSpan {
  const attributes: KeyValue[] = [{ key: TelltaleAttr.stepKind, value: kind }];
  if (usage !== undefined) {
    attributes.push(
      { key: OtelAttr.genAiInputTokens, value: BigInt(usage.input) },
      { key: OtelAttr.genAiOutputTokens, value: BigInt(usage.output) },
    );
    if (usage.cost !== undefined) attributes.push({ key: TelltaleAttr.costUsd, value: usage.cost });
  }
  return otlpSpan({
    traceId: TRACE,
    spanId: spanId.padStart(16, '0'),
    parentSpanId: parentSpanId === '' ? '' : parentSpanId.padStart(16, '0'),
    name: `${kind} ${spanId}`,
    endTimeUnixNano: NOW_NS + 1n,
    attributes,
  });
}

function usage(index: NestedUsage, spans: OtlpSpan[]): string[] {
  return normaliseRequest(otlpRequest(spans), 'p', { nowMs: NOW_MS, nestedUsage: index }).spans.map(
    (s) =>
      `${s.spanId.replace(/^0+/, '')}:${s.inputTokens}/${s.outputTokens}${s.costUsd === null ? '' : ` $${s.costUsd}`}`,
  );
}

describe('usage of nested llm spans counts once, on the innermost', () => {
  it('an llm step with usage over an instrumented llm call with usage (same request, either order)', () => {
    expect(
      usage(new NestedUsage(), [
        span('1', '', 'run'),
        span('2', '1', 'llm', { input: 100, output: 10, cost: 0.5 }),
        span('3', '2', 'llm', { input: 100, output: 10 }),
      ]),
    ).toEqual([
      '1:0/0',
      '2:0/0',
      '3:100/10 $0.5', // the outer's explicit cost, kept on the inner span
    ]);
    expect(
      usage(new NestedUsage(), [
        span('3', '2', 'llm', { input: 100, output: 10 }),
        span('2', '1', 'llm', { input: 100, output: 10 }),
      ]),
    ).toEqual(['3:100/10', '2:0/0']);
  });

  it("moves the outer span's explicit cost to an inner span that has only tokens (same request)", () => {
    expect(
      usage(new NestedUsage(), [
        span('3', '2', 'llm', { input: 100, output: 10 }),
        span('2', '1', 'llm', { input: 100, output: 10, cost: 0.25 }),
      ]),
    ).toEqual(['3:100/10 $0.25', '2:0/0']);
    expect(
      usage(new NestedUsage(), [
        span('3', '2', 'llm', { input: 100, output: 10, cost: 0.1 }),
        span('2', '1', 'llm', { input: 100, output: 10, cost: 0.25 }),
      ]),
    ).toEqual(['3:100/10 $0.1', '2:0/0']);
  });

  it('the child in an earlier request (children end first)', () => {
    const index = new NestedUsage();
    usage(index, [span('3', '2', 'llm', { input: 7, output: 1 })]);
    expect(usage(index, [span('2', '1', 'llm', { input: 7, output: 1 })])).toEqual(['2:0/0']);
  });

  it('three deep: only the innermost keeps its usage', () => {
    expect(
      usage(new NestedUsage(), [
        span('4', '3', 'llm', { input: 5, output: 5 }),
        span('3', '2', 'llm', { input: 5, output: 5 }),
        span('2', '1', 'llm', { input: 5, output: 5 }),
      ]),
    ).toEqual(['4:5/5', '3:0/0', '2:0/0']);
  });

  it('leaves other parents alone: a tool with its own cost over an llm call, an llm step without usage, siblings', () => {
    expect(
      usage(new NestedUsage(), [
        span('3', '2', 'llm', { input: 5, output: 5 }),
        span('2', '1', 'tool', { input: 0, output: 0, cost: 0.01 }),
      ]),
    ).toEqual(['3:5/5', '2:0/0 $0.01']);
    expect(
      usage(new NestedUsage(), [
        span('3', '2', 'llm', { input: 5, output: 5 }),
        span('2', '1', 'llm'),
        span('4', '1', 'llm', { input: 1, output: 1 }),
      ]),
    ).toEqual(['3:5/5', '2:0/0', '4:1/1']);
  });
});
