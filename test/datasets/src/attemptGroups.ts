import type { PriceTable, SpanRecord } from '@telltale/store';
import { spanCostUsd } from './spanCostUsd.js';

/** One attempt group found in spans. */
export interface AttemptGroup {
  runId: string;
  parentSpanId: string;
  stepName: string;
  stepKind: string;
  /** Attempt spans in start order. */
  spanIds: string[];
  attempts: number;
  okAttempts: number;
  firstOk: boolean;
  anyOk: boolean;
  retryExtraNs: number;
  retryExtraCostUsd: number;
}

/** Orders spans by start time, then span id (the SQL's tie-break). */
export function byStartThenId(a: SpanRecord, b: SpanRecord): number {
  if (a.startTimeUnixNano !== b.startTimeUnixNano) return a.startTimeUnixNano < b.startTimeUnixNano ? -1 : 1;
  return a.spanId < b.spanId ? -1 : a.spanId > b.spanId ? 1 : 0;
}

/** Orders siblings by start time, then end time, then span id (the grouping SQL's order). */
export function bySiblingOrder(a: SpanRecord, b: SpanRecord): number {
  if (a.startTimeUnixNano !== b.startTimeUnixNano) return a.startTimeUnixNano < b.startTimeUnixNano ? -1 : 1;
  if (a.endTimeUnixNano !== b.endTimeUnixNano) return a.endTimeUnixNano < b.endTimeUnixNano ? -1 : 1;
  return a.spanId < b.spanId ? -1 : a.spanId > b.spanId ? 1 : 0;
}

/**
 * Reference attempt grouping (RELIABILITY-MATH "Attempt", as docs/metrics.md
 * implements it): among the step spans (kind not '' or 'run') with the same
 * run and parent, ordered by start, end and span id, a span starts a new group
 * when it is the first, its step name differs from the previous one's, its
 * attempt is 1, or its attempt is set and does not exceed the previous one's.
 * A span without an attempt number continues a group only when the previous
 * sibling has none either and FAILED. A span is OK unless its status is ERROR.
 */
export function attemptGroups(spans: readonly SpanRecord[], prices: PriceTable): AttemptGroup[] {
  const siblings = new Map<string, SpanRecord[]>();
  for (const s of spans) {
    if (s.stepKind === '' || s.stepKind === 'run') continue;
    const key = `${s.runId}\u0000${s.parentSpanId}`;
    const list = siblings.get(key);
    if (list === undefined) siblings.set(key, [s]);
    else list.push(s);
  }
  const groups: AttemptGroup[] = [];
  for (const list of siblings.values()) {
    list.sort(bySiblingOrder);
    let current: AttemptGroup | undefined;
    let prev: SpanRecord | undefined;
    for (const s of list) {
      const fresh =
        prev === undefined ||
        s.stepName !== prev.stepName ||
        s.attempt === 1 ||
        (s.attempt > 0 && s.attempt <= prev.attempt) ||
        (s.attempt === 0 && (prev.attempt > 0 || prev.statusCode !== 2));
      const ok = s.statusCode !== 2;
      const duration = Number(s.endTimeUnixNano - s.startTimeUnixNano);
      const cost = spanCostUsd(s, prices).costUsd;
      if (fresh || current === undefined) {
        current = {
          runId: s.runId,
          parentSpanId: s.parentSpanId,
          stepName: s.stepName,
          stepKind: s.stepKind,
          spanIds: [s.spanId],
          attempts: 1,
          okAttempts: ok ? 1 : 0,
          firstOk: ok,
          anyOk: ok,
          retryExtraNs: 0,
          retryExtraCostUsd: 0,
        };
        groups.push(current);
      } else {
        current.spanIds.push(s.spanId);
        current.attempts++;
        if (ok) current.okAttempts++;
        current.anyOk ||= ok;
        current.retryExtraNs += duration;
        current.retryExtraCostUsd += cost;
      }
      prev = s;
    }
  }
  return groups;
}
