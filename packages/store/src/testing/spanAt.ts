import type { SpanRecord } from '../spans/SpanRecord.js';
import { makeSpan } from './makeSpan.js';

const MS = 1_000_000n;

/**
 * A span of a hand-drawn span tree: times in milliseconds after `originNs`,
 * kind `run` marks the run root. Span ids only need to be unique within a run.
 */
export function spanAt(
  originNs: bigint,
  run: string,
  spanId: string,
  parentSpanId: string,
  kind: string,
  name: string,
  startMs: number,
  endMs: number,
  extra: Partial<SpanRecord> = {},
): SpanRecord {
  return makeSpan({
    runId: run,
    traceId: run.padEnd(32, '0').slice(0, 32),
    spanId,
    parentSpanId,
    name,
    stepKind: kind,
    stepName: kind === '' ? '' : name,
    isRunRoot: kind === 'run',
    statusCode: 1,
    startTimeUnixNano: originNs + BigInt(Math.round(startMs * 1000)) * (MS / 1000n),
    endTimeUnixNano: originNs + BigInt(Math.round(endMs * 1000)) * (MS / 1000n),
    ...extra,
  });
}

/** Deterministic Fisher–Yates shuffle (mulberry32), for out-of-order insertion tests. */
export function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  let a = seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
