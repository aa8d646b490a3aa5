import type { FactSpan } from './FactSpan.js';

/** (kind code: 0 step, 1 run root, 2 other; step name for steps; self time in ns). */
export type SelfTime = [number, string, bigint];

/**
 * A run's self times summed per (kind, step) (selfTimeCtes and RUN_SELF_CTE):
 * each span's duration less the union of its children's intervals clipped
 * to it, never below 0. `positions` (span id to its index in `spans`),
 * when the caller has it, says the ids are unique and saves building it.
 */
export function selfTimes(
  spans: readonly FactSpan[],
  rankOf: (s: FactSpan) => number,
  positions?: ReadonlyMap<string, number>,
): SelfTime[] {
  const n = spans.length;
  // one group per span id (a duplicate id counts once): the first span of an id stands for it
  const counted = new Uint8Array(n);
  let at = positions;
  if (at === undefined) {
    const own = new Map<string, number>();
    for (let i = 0; i < n; i++) {
      const id = spans[i]!.spanId;
      if (own.has(id)) continue;
      own.set(id, i);
      counted[i] = 1;
    }
    at = own;
  } else counted.fill(1);
  // each span's children as a list through the positions: head[p] is one child of p, next[c] the one after c
  const head = new Int32Array(n).fill(-1);
  const next = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const parent = spans[i]!.parentSpanId;
    if (parent === '') continue;
    const p = at.get(parent);
    if (p === undefined) continue;
    next[i] = head[p]!;
    head[p] = i;
  }
  const steps = new Map<string, SelfTime>();
  /** Run roots (1) and other spans (2): no step name. */
  const other: Array<SelfTime | undefined> = [];
  for (let i = 0; i < n; i++) {
    if (counted[i] === 0) continue;
    const me = spans[i]!;
    const kind = rankOf(me) > 0 ? 1 : me.stepKind === '' ? 2 : 0;
    const s = me.startNs;
    const e = me.endNs;
    let covered = 0n;
    const firstKid = head[i]!;
    if (firstKid >= 0 && next[firstKid]! < 0) {
      // the common case, without the sort
      const c = spans[firstKid]!;
      const cs = c.startNs > s ? c.startNs : s;
      const ce = c.endNs < e ? c.endNs : e;
      if (ce > cs) covered = ce - cs;
    } else if (firstKid >= 0) {
      const clipped: Array<[bigint, bigint]> = [];
      for (let k = firstKid; k >= 0; k = next[k]!) {
        const c = spans[k]!;
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
