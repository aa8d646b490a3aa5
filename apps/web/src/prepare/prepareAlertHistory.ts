import type { AlertHistoryEvent, AlertMetric, AlertRule } from '@telltale/api-contract';
import type { StateTone } from './prepareAlertRules';
import { ruleHref, STATE_LABEL, stateTone } from './prepareAlertRules';
import { formatEpochMs, isoEpochMs } from './prepareAlertTime';
import { formatAlertValue } from './prepareAlertValues';

export interface HistoryRow {
  key: string;
  ruleId: string;
  /** The rule's name, or its id once the rule is deleted. */
  ruleName: string;
  /** Undefined once the rule is deleted. */
  ruleHref: string | undefined;
  groupLabel: string;
  atLabel: string;
  atIso: string;
  fromTone: StateTone;
  fromLabel: string;
  toTone: StateTone;
  toLabel: string;
  valueLabel: string;
  thresholdLabel: string;
  sampleLabel: string;
  message: string;
}

/** State changes as the server sent them (newest first), with rule names and values in the metric's unit. */
export function prepareHistoryRows(
  events: readonly AlertHistoryEvent[],
  rules: readonly AlertRule[],
  timeZone?: string,
): HistoryRow[] {
  const byId = new Map(rules.map((r) => [r.id, r]));
  return events.map((e) => {
    const rule = byId.get(e.ruleId);
    const metric: AlertMetric | undefined = rule?.metric;
    const value = (v: number | null | undefined): string =>
      metric === undefined ? (v === null || v === undefined ? '–' : String(v)) : formatAlertValue(metric, v);
    const fromTone = stateTone(e.fromState);
    const toTone = stateTone(e.toState);
    return {
      key: e.eventId,
      ruleId: e.ruleId,
      ruleName: rule?.name ?? e.ruleId,
      ruleHref: rule === undefined ? undefined : ruleHref(rule.id),
      groupLabel: e.groupKey === '' ? '' : e.groupKey.startsWith('run:') ? `run ${e.groupKey.slice(4)}` : e.groupKey,
      atLabel: formatEpochMs(e.atMs, timeZone),
      atIso: isoEpochMs(e.atMs),
      fromTone,
      fromLabel: fromTone === 'unknown' ? e.fromState || '–' : STATE_LABEL[fromTone],
      toTone,
      toLabel: toTone === 'unknown' ? e.toState || '–' : STATE_LABEL[toTone],
      valueLabel: value(e.value),
      thresholdLabel: value(e.threshold),
      sampleLabel: String(e.sample),
      message: e.message,
    };
  });
}

/** An offset page whose total is unknown: the client asks for one row more than it shows to know whether there is a next page. */
export interface OffsetPage {
  /** 1-based. */
  page: number;
  hasPrev: boolean;
  hasNext: boolean;
  /** `1–25`, `26–31`, or `Nothing here`. */
  rangeLabel: string;
}

export function prepareOffsetPage(opts: { offset: number; pageSize: number; received: number }): OffsetPage {
  const shown = Math.min(opts.received, opts.pageSize);
  return {
    page: Math.floor(opts.offset / opts.pageSize) + 1,
    hasPrev: opts.offset > 0,
    hasNext: opts.received > opts.pageSize,
    rangeLabel: shown === 0 ? 'Nothing here' : `${opts.offset + 1}–${opts.offset + shown}`,
  };
}
