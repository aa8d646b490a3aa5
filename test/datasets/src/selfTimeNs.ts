import type { SpanRecord } from '@telltale/store';

type Timed = Pick<SpanRecord, 'traceId' | 'spanId' | 'parentSpanId' | 'startTimeUnixNano' | 'endTimeUnixNano'>;

/**
 * Self time of every span, keyed by span id: its duration minus the union of
 * its direct children's intervals, each clipped to the span (children that
 * overlap each other are not subtracted twice; time a child spends outside its
 * parent is not subtracted at all). Children are matched within the same trace.
 */
export function selfTimeNs(spans: readonly Timed[]): Map<string, number> {
  const children = new Map<string, Timed[]>();
  for (const s of spans) {
    if (s.parentSpanId === '') continue;
    const key = `${s.traceId}/${s.parentSpanId}`;
    const list = children.get(key);
    if (list === undefined) children.set(key, [s]);
    else list.push(s);
  }
  const out = new Map<string, number>();
  for (const s of spans) {
    const start = s.startTimeUnixNano;
    const end = s.endTimeUnixNano;
    const duration = Number(end - start);
    const kids = children.get(`${s.traceId}/${s.spanId}`);
    if (kids === undefined) {
      out.set(s.spanId, duration);
      continue;
    }
    const intervals: Array<[number, number]> = [];
    for (const k of kids) {
      const a = k.startTimeUnixNano < start ? start : k.startTimeUnixNano;
      const b = k.endTimeUnixNano > end ? end : k.endTimeUnixNano;
      if (b > a) intervals.push([Number(a - start), Number(b - start)]);
    }
    intervals.sort((x, y) => x[0] - y[0]);
    let covered = 0;
    let curStart = -1;
    let curEnd = -1;
    for (const [a, b] of intervals) {
      if (a > curEnd) {
        covered += curEnd - curStart;
        curStart = a;
        curEnd = b;
      } else if (b > curEnd) curEnd = b;
    }
    covered += curEnd - curStart;
    out.set(s.spanId, duration - covered);
  }
  return out;
}
