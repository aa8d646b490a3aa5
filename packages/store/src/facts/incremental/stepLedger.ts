import type { FactSpan } from './FactSpan.js';
import { compareBigints, compareStrings } from './spanOrder.js';

/** A step span's contribution to the attempt-group counts (STEP_LEDGER_CTE). */
export interface LedgerEntry {
  span: FactSpan;
  ok: boolean;
  gStart: boolean;
  gFirstOk: boolean;
  gRecovered: boolean;
}

/**
 * The attempt-group ledger of one run's step spans: spans with an attempt
 * number count by it; a span without one retries the sibling just before it
 * (same parent, ordered by start, end, span id) only when that sibling has
 * the same step name and failed.
 */
export function stepLedger(steps: readonly FactSpan[]): LedgerEntry[] {
  const out: LedgerEntry[] = [];
  const unnumbered = new Map<string, FactSpan[]>();
  for (const span of steps) {
    const ok = span.statusCode !== 2;
    if (span.attempt > 0) {
      const first = span.attempt <= 1;
      out.push({ span, ok, gStart: first, gFirstOk: first && ok, gRecovered: !first && ok });
      continue;
    }
    let siblings = unnumbered.get(span.parentSpanId);
    if (siblings === undefined) unnumbered.set(span.parentSpanId, (siblings = []));
    siblings.push(span);
  }
  for (const siblings of unnumbered.values()) {
    siblings.sort(
      (a, b) =>
        compareBigints(a.startNs, b.startNs) || compareBigints(a.endNs, b.endNs) || compareStrings(a.spanId, b.spanId),
    );
    let prev: FactSpan | undefined;
    for (const span of siblings) {
      const ok = span.statusCode !== 2;
      const gStart = prev === undefined || span.stepName !== prev.stepName || prev.statusCode !== 2;
      out.push({ span, ok, gStart, gFirstOk: gStart && ok, gRecovered: !gStart && ok });
      prev = span;
    }
  }
  return out;
}
