import type { FactSpan } from './FactSpan.js';

/** (kind code: 0 step, 1 run root, 2 other; step name for steps; self time in ns). */
export type SelfTime = [number, string, bigint];

/**
 * A run's self times summed per (kind, step) (selfTimeCtes and RUN_SELF_CTE):
 * each span's duration less the union of its children's intervals clipped
 * to it, never below 0.
 */
export function selfTimes(spans: readonly FactSpan[], rankOf: (s: FactSpan) => number): SelfTime[] {
  const children = new Map<string, FactSpan[]>();
  for (const s of spans) {
    if (s.parentSpanId === '') continue;
    let list = children.get(s.parentSpanId);
    if (list === undefined) children.set(s.parentSpanId, (list = []));
    list.push(s);
  }
  const seen = new Set<string>();
  const steps = new Map<string, SelfTime>();
  /** Run roots (1) and other spans (2): no step name. */
  const other: Array<SelfTime | undefined> = [];
  for (const me of spans) {
    // one group per span id (a duplicate id counts once)
    if (seen.has(me.spanId)) continue;
    seen.add(me.spanId);
    const kind = rankOf(me) > 0 ? 1 : me.stepKind === '' ? 2 : 0;
    const s = me.startNs;
    const e = me.endNs;
    let covered = 0n;
    const kids = children.get(me.spanId);
    if (kids !== undefined && kids.length === 1) {
      // the common case, without the sort
      const c = kids[0]!;
      const cs = c.startNs > s ? c.startNs : s;
      const ce = c.endNs < e ? c.endNs : e;
      if (ce > cs) covered = ce - cs;
    } else if (kids !== undefined) {
      const clipped: Array<[bigint, bigint]> = [];
      for (const c of kids) {
        const cs = c.startNs > s ? c.startNs : s;
        const ce = c.endNs < e ? c.endNs : e;
        if (ce > cs) clipped.push([cs, ce]);
      }
      clipped.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
      let curS = 0n;
      let curE = 0n;
      let open = false;
      for (const [cs, ce] of clipped) {
        if (open && cs <= curE) {
          if (ce > curE) curE = ce;
          continue;
        }
        if (open) covered += curE - curS;
        curS = cs;
        curE = ce;
        open = true;
      }
      if (open) covered += curE - curS;
    }
    const selfNs = e - s - covered;
    const add = selfNs > 0n ? selfNs : 0n;
    if (kind !== 0) {
      const sum = (other[kind] ??= [kind, '', 0n]);
      sum[2] += add;
      continue;
    }
    const sum = steps.get(me.stepName);
    if (sum === undefined) steps.set(me.stepName, [0, me.stepName, add]);
    else sum[2] += add;
  }
  const out = [...steps.values()];
  for (const sum of other) if (sum !== undefined) out.push(sum);
  return out;
}
