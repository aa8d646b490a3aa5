import { LOOP_VARIANT_CODE } from '@telltale/semconv';
import { cityHash64 } from './cityHash64.js';
import type { FactSpan } from './FactSpan.js';
import { compareBigints, keyOfSpan } from './spanOrder.js';

/** A wasted span: (start ns, span key, duration ns, cost). */
export type WastedSpan = [bigint, bigint, bigint, number];
/** A detection as run_facts.loop_dets holds it: (code, key1, key2, count, anchor ns, anchor key, wasted). */
export type LoopDetection = [number, bigint, bigint, number, bigint, bigint, WastedSpan[]];

/** A key the SQL hashes: compared as text here, hashed only when a detection stores it. */
interface Key {
  text: string;
  args: string[];
}
const NO_KEY: Key = { text: '', args: [] };

interface LoopStep {
  ts: bigint;
  ss: bigint;
  /** 1 tool, 2 plan, 3 validate; +4 when failed. */
  code: number;
  k1: Key;
  k2: Key;
  ds: bigint;
  cs: number;
}

/** Hashes memoised per process: tool names and hashes repeat across runs. */
const hashes = new Map<string, bigint>();
const MAX_MEMO = 100_000;
function hashOf(key: Key): bigint {
  if (key.args.length === 0) return 0n;
  let h = hashes.get(key.text);
  if (h === undefined) {
    h = cityHash64(...key.args);
    if (hashes.size >= MAX_MEMO) hashes.clear();
    hashes.set(key.text, h);
  }
  return h;
}

function loopStepOf(s: FactSpan, cost: number): LoopStep | undefined {
  const kind = s.stepKind === 'tool' ? 1 : s.stepKind === 'plan' ? 2 : s.stepKind === 'validate' ? 3 : 0;
  if (kind === 0) return undefined;
  const code = kind + (s.statusCode === 2 ? 4 : 0);
  let k1 = NO_KEY;
  let k2 = NO_KEY;
  if (kind === 1) {
    const tool = s.toolName !== '' ? s.toolName : s.stepName;
    k1 = { text: `1:${tool}`, args: [tool] };
    if (s.toolArgsHash !== '') k2 = { text: `2:${tool.length}:${tool}${s.toolArgsHash}`, args: [tool, s.toolArgsHash] };
  } else {
    if (s.stateHash !== '') k1 = { text: `1:${s.stateHash}`, args: [s.stateHash] };
    if (kind === 3 && s.outputHash !== '') k2 = { text: `1:${s.outputHash}`, args: [s.outputHash] };
  }
  return { ts: s.startNs, ss: keyOfSpan(s), code, k1, k2, ds: s.endNs - s.startNs, cs: cost };
}

const wasted = (x: LoopStep): WastedSpan => [x.ts, x.ss, x.ds, x.cs];

/** Runs of equal keys (in time order within a key), the qualifying ones ordered by the key's hash as the SQL sorts them. */
function repeatedKeys(steps: readonly LoopStep[], keyOf: (x: LoopStep) => Key, repeat: number): LoopStep[][] {
  const groups = new Map<string, LoopStep[]>();
  for (const x of steps) {
    const k = keyOf(x).text;
    let g = groups.get(k);
    if (g === undefined) groups.set(k, (g = []));
    g.push(x);
  }
  const found: Array<[bigint, LoopStep[]]> = [];
  for (const g of groups.values()) if (g.length >= repeat && g[0] !== undefined) found.push([hashOf(keyOf(g[0])), g]);
  found.sort((a, b) => compareBigints(a[0], b[0]));
  return found.map(([, g]) => g);
}

/** Splits before every element (but the first) where `starts(x, previous)` holds. */
function split<T>(xs: readonly T[], starts: (x: T, p: T) => boolean): T[][] {
  const out: T[][] = [];
  let cur: T[] = [];
  xs.forEach((x, i) => {
    const p = xs[i - 1];
    if (i > 0 && p !== undefined && starts(x, p)) {
      out.push(cur);
      cur = [];
    }
    cur.push(x);
  });
  if (cur.length > 0) out.push(cur);
  return out;
}

/**
 * The detections (but runaway) of one run's step spans, as loopFoundCte
 * finds them: repeated (tool, args), repeated states, streaks of failed
 * validations with the same output, and ping-pong alternations of tools.
 */
export function loopDetections(
  steps: readonly FactSpan[],
  costOf: (s: FactSpan) => number,
  thresholds: { repeat: number; pingPongCycles: number },
): LoopDetection[] {
  const st0: LoopStep[] = [];
  for (const s of steps) {
    const x = loopStepOf(s, costOf(s));
    if (x !== undefined) st0.push(x);
  }
  if (st0.length === 0) return [];
  st0.sort((a, b) => compareBigints(a.ts, b.ts) || compareBigints(a.ss, b.ss));
  const st = st0.filter((x, i) => {
    const p = st0[i - 1];
    return p === undefined || x.ts !== p.ts || x.ss !== p.ss;
  });
  const { repeat, pingPongCycles } = thresholds;
  const dets: LoopDetection[] = [];
  const anchored = (code: number, key: bigint, g: LoopStep[]): LoopDetection | undefined => {
    const first = g[0];
    return first === undefined ? undefined : [code, key, 0n, g.length, first.ts, first.ss, g.slice(1).map(wasted)];
  };
  const push = (d: LoopDetection | undefined): void => {
    if (d !== undefined) dets.push(d);
  };

  const ra0 = st.filter((x) => (x.code & 3) === 1 && x.k2.args.length > 0);
  for (const g of repeatedKeys(ra0, (x) => x.k2, repeat))
    push(anchored(LOOP_VARIANT_CODE.tool_args, hashOf(g[0]?.k2 ?? NO_KEY), g));
  const sp0 = st.filter((x) => ((x.code & 3) === 2 || (x.code & 3) === 3) && x.k1.args.length > 0);
  for (const g of repeatedKeys(sp0, (x) => x.k1, repeat))
    push(anchored(LOOP_VARIANT_CODE.state_hash, hashOf(g[0]?.k1 ?? NO_KEY), g));
  const va = st.filter((x) => (x.code & 3) === 3);
  const vo = split(va, (x, p) => !(x.code === 7 && p.code === 7 && x.k2.args.length > 0 && x.k2.text === p.k2.text));
  for (const g of vo)
    if (g.length >= repeat) push(anchored(LOOP_VARIANT_CODE.failed_validation, hashOf(g[0]?.k2 ?? NO_KEY), g));

  const tl = st.filter((x) => (x.code & 3) === 1);
  const flags = tl.map((x, j) => {
    const p1 = tl[j - 1];
    const p2 = tl[j - 2];
    return j >= 2 && p1 !== undefined && p2 !== undefined && x.k1.text === p2.k1.text && x.k1.text !== p1.k1.text;
  });
  const positions = flags.map((f, j) => ({ j, f }));
  for (const g of split(positions, (x, p) => x.f !== p.f)) {
    const first = g[0];
    if (first === undefined || !first.f || g.length + 2 < 2 * pingPongCycles) continue;
    const a = tl[first.j - 2];
    const b = tl[first.j - 1];
    if (a === undefined || b === undefined) continue;
    dets.push([
      LOOP_VARIANT_CODE.alternation,
      hashOf(a.k1),
      hashOf(b.k1),
      Math.floor((g.length + 2) / 2),
      a.ts,
      a.ss,
      g.flatMap(({ j }) => {
        const x = tl[j];
        return x === undefined ? [] : [wasted(x)];
      }),
    ]);
  }
  return dets;
}
