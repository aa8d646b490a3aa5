import { describe, expect, it } from 'vitest';
import { selfTimeNs } from './selfTimeNs.js';

const T = 1_800_000_000_000_000_000n;
const span = (spanId: string, parentSpanId: string, start: number, end: number, traceId = 't') => ({
  traceId,
  spanId,
  parentSpanId,
  startTimeUnixNano: T + BigInt(start),
  endTimeUnixNano: T + BigInt(end),
});

describe('selfTimeNs', () => {
  it('subtracts the union of the children, clipped to the parent', () => {
    const self = selfTimeNs([
      span('root', '', 0, 100),
      span('a', 'root', 10, 40), // overlaps b: union 10..60
      span('b', 'root', 30, 60),
      span('c', 'root', 90, 130), // runs past the parent: only 90..100 counts
      span('a1', 'a', 15, 20),
    ]);
    expect(self.get('root')).toBe(100 - 50 - 10);
    expect(self.get('a')).toBe(30 - 5);
    expect(self.get('b')).toBe(30);
    expect(self.get('c')).toBe(40);
    expect(self.get('a1')).toBe(5);
  });

  it('matches children within their own trace only, and handles nested and touching intervals', () => {
    const self = selfTimeNs([
      span('p', '', 0, 100, 't1'),
      span('x', 'p', 0, 50, 't1'),
      span('y', 'p', 50, 100, 't1'),
      span('z', 'p', 20, 30, 't1'),
      span('q', 'p', 0, 100, 't2'), // another trace's span with the same parent id
    ]);
    expect(self.get('p')).toBe(0);
  });

  it('agrees with generated data: self time of a span with parallel children is its duration minus their union', async () => {
    const { generateDataset } = await import('./generateDataset.js');
    const { smallDataset } = await import('./smallDataset.js');
    const { spans } = generateDataset(smallDataset({ runs: 300, endNs: T }));
    const self = selfTimeNs(spans);
    const enrich = spans.filter((s) => s.stepName === 'enrich');
    expect(enrich.length).toBeGreaterThan(10);
    for (const e of enrich) {
      const kids = spans.filter((s) => s.parentSpanId === e.spanId);
      expect(kids).toHaveLength(2);
      const sum = kids.reduce((n, k) => n + Number(k.endTimeUnixNano - k.startTimeUnixNano), 0);
      const dur = Number(e.endTimeUnixNano - e.startTimeUnixNano);
      expect(self.get(e.spanId)!).toBeGreaterThan(dur - sum); // the children overlap
      expect(self.get(e.spanId)!).toBeGreaterThan(0);
    }
    for (const s of spans) expect(self.get(s.spanId)!).toBeGreaterThanOrEqual(0);
  });
});
