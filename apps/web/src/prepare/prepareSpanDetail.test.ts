import { describe, expect, it } from 'vitest';
import { span, T0 } from '../testing/fixtures';
import { unixNanos } from '../units';
import { formatAttributeValue, prepareSpanDetail, spanKindName } from './prepareSpanDetail';

describe('prepareSpanDetail', () => {
  const s = span('s1', 'p1', 10, 2.5, {
    stepKind: 'tool',
    stepName: 'search',
    attempt: 2,
    toolName: 'web_search',
    kind: 3,
    status: { code: 'error', message: 'deadline exceeded' },
    errorType: 'Timeout',
    sideEffect: true,
    costUsd: 0.002,
    attributes: { 'z.last': 'x', 'a.first': 1, nested: { deep: [1, 2] }, flag: true, none: null },
    resourceAttributes: { 'service.name': 'support' },
    events: [
      { timeUnixNano: (T0 + 12_000_000n).toString(), name: 'retry', attributes: {} },
      { timeUnixNano: (T0 + 11_000_000n).toString(), name: 'exception', attributes: { 'exception.message': 'boom' } },
    ],
  });

  it('summarises the span', () => {
    const detail = prepareSpanDetail(s, unixNanos(T0));
    expect(detail).toMatchObject({
      title: 'search',
      kindLabel: 'tool',
      statusLabel: 'Error',
      isError: true,
      errorMessage: 'Timeout: deadline exceeded',
    });
    const fields = Object.fromEntries(detail.fields.map((f) => [f.label, f.value]));
    expect(fields).toMatchObject({
      Attempt: '2',
      Tool: 'web_search',
      Duration: '2.5 ms',
      'Starts at': '+10 ms',
      'Side effect': 'yes',
      Cost: '$0.002',
      'Span kind': 'client',
      'Parent span id': 'p1',
    });
    expect(fields).not.toHaveProperty('Model');
    expect(fields).not.toHaveProperty('Tokens');
  });

  it('sorts attributes by key and renders values', () => {
    const detail = prepareSpanDetail(s, unixNanos(T0));
    expect(detail.attributes.map((a) => [a.key, a.value])).toEqual([
      ['a.first', '1'],
      ['flag', 'true'],
      ['nested', '{\n  "deep": [\n    1,\n    2\n  ]\n}'],
      ['none', 'null'],
      ['z.last', 'x'],
    ]);
    expect(detail.attributes.find((a) => a.key === 'nested')?.multiline).toBe(true);
    expect(detail.resourceAttributes).toEqual([{ key: 'service.name', value: 'support', multiline: false }]);
  });

  it('orders events by time, offset from the span start', () => {
    const detail = prepareSpanDetail(s, unixNanos(T0));
    expect(detail.events.map((e) => [e.name, e.offsetLabel])).toEqual([
      ['exception', '+1 ms'],
      ['retry', '+2 ms'],
    ]);
    expect(detail.events[0]?.attributes).toEqual([{ key: 'exception.message', value: 'boom', multiline: false }]);
  });

  it('names OTLP span kinds', () => {
    expect([0, 1, 2, 3, 4, 5, 9].map(spanKindName)).toEqual([
      'unspecified',
      'internal',
      'server',
      'client',
      'producer',
      'consumer',
      'kind 9',
    ]);
  });

  it('renders scalar attribute values', () => {
    expect(formatAttributeValue('a\nb')).toEqual({ value: 'a\nb', multiline: true });
    expect(formatAttributeValue(12.5)).toEqual({ value: '12.5', multiline: false });
    expect(formatAttributeValue(['a'])).toEqual({ value: '[\n  "a"\n]', multiline: true });
  });
});
