import type { AlertRule, AlertState, Destination } from '@telltale/api-contract';
import { COMPARISON_INFO, describeCondition, formatAlertValue, formatSeconds, METRIC_INFO } from './prepareAlertValues';
import { formatEpochMs } from './prepareAlertTime';

/** A state as a badge: the four of the state machine, plus "not evaluated yet". */
export type StateTone = 'ok' | 'pending' | 'firing' | 'resolved' | 'unknown';

const SEVERITY: Readonly<Record<StateTone, number>> = { firing: 4, pending: 3, resolved: 2, ok: 1, unknown: 0 };

export function stateTone(state: string): StateTone {
  return state === 'ok' || state === 'pending' || state === 'firing' || state === 'resolved' ? state : 'unknown';
}

export const STATE_LABEL: Readonly<Record<StateTone, string>> = {
  ok: 'OK',
  pending: 'Pending',
  firing: 'Firing',
  resolved: 'Resolved',
  unknown: 'Not evaluated',
};

export function ruleHref(ruleId: string): string {
  return `/alerts/rules/${encodeURIComponent(ruleId)}`;
}

/** One (rule, group) state: value against threshold, since when. */
export interface StateGroupRow {
  key: string;
  groupKey: string;
  /** `All runs` for a rule's single series; the group's key otherwise. */
  groupLabel: string;
  /** A looping run's page, for live loop groups (`run:<id>`). */
  runHref: string | undefined;
  tone: StateTone;
  stateLabel: string;
  valueLabel: string;
  thresholdLabel: string;
  /** `40% < 80%`: the value against the threshold with the rule's comparison. */
  comparisonLabel: string;
  sampleLabel: string;
  sinceLabel: string;
  lastEvalLabel: string;
}

export interface RuleRow {
  id: string;
  href: string;
  name: string;
  description: string;
  enabled: boolean;
  conditionLabel: string;
  windowLabel: string;
  filtersLabel: string;
  destinationsLabel: string;
  /** The most severe state of its groups (firing > pending > resolved > ok). */
  tone: StateTone;
  stateLabel: string;
  /** `2 of 5 groups firing`, the value for a single series, or ''. */
  stateDetail: string;
  groups: StateGroupRow[];
}

function groupRun(groupKey: string): string | undefined {
  return groupKey.startsWith('run:') ? groupKey.slice(4) : undefined;
}

export function prepareStateGroups(rule: AlertRule, states: readonly AlertState[], timeZone?: string): StateGroupRow[] {
  return states
    .filter((s) => s.ruleId === rule.id)
    .map((s) => {
      const tone = stateTone(s.state);
      const runId = groupRun(s.groupKey);
      const value = formatAlertValue(rule.metric, s.lastValue);
      const threshold = formatAlertValue(rule.metric, rule.threshold);
      return {
        key: `${s.ruleId}/${s.groupKey}`,
        groupKey: s.groupKey,
        groupLabel: s.groupKey === '' ? 'All runs' : runId !== undefined ? `run ${runId}` : s.groupKey,
        runHref: runId === undefined ? undefined : `/runs/${encodeURIComponent(runId)}`,
        tone,
        stateLabel: STATE_LABEL[tone] === 'Not evaluated' ? s.state : STATE_LABEL[tone],
        valueLabel: value,
        thresholdLabel: threshold,
        comparisonLabel: `${value} vs ${COMPARISON_INFO[rule.comparison].symbol} ${threshold}`,
        sampleLabel: `n = ${s.lastSample}`,
        sinceLabel: formatEpochMs(s.sinceMs, timeZone),
        lastEvalLabel: formatEpochMs(s.lastEvalAtMs, timeZone),
      };
    })
    .sort((a, b) => SEVERITY[b.tone] - SEVERITY[a.tone] || a.groupKey.localeCompare(b.groupKey));
}

function filtersLabel(filters: Readonly<Record<string, string>>): string {
  const parts = Object.entries(filters).map(([key, value]) => `${key}=${value}`);
  return parts.length === 0 ? 'all runs' : parts.join(', ');
}

/** One row per rule, in the server's order, with the state of each of its groups. */
export function prepareRuleRows(
  rules: readonly AlertRule[],
  states: readonly AlertState[],
  destinations: readonly Destination[],
  timeZone?: string,
): RuleRow[] {
  const destinationName = new Map(destinations.map((d) => [d.id, d.name]));
  return rules.map((rule) => {
    const groups = prepareStateGroups(rule, states, timeZone);
    const top = groups[0];
    const tone: StateTone = top?.tone ?? 'unknown';
    const firing = groups.filter((g) => g.tone === 'firing').length;
    const stateDetail =
      groups.length === 0
        ? ''
        : groups.length === 1 && top
          ? `${top.valueLabel} (${top.sampleLabel})`
          : `${firing} of ${groups.length} groups firing`;
    return {
      id: rule.id,
      href: ruleHref(rule.id),
      name: rule.name,
      description: rule.description,
      enabled: rule.enabled,
      conditionLabel: describeCondition(rule),
      windowLabel: `over ${formatSeconds(rule.windowSeconds)}, every ${formatSeconds(rule.evaluationIntervalSeconds)}`,
      filtersLabel: filtersLabel(rule.filters),
      destinationsLabel:
        rule.destinationIds.length === 0
          ? 'none'
          : rule.destinationIds.map((id) => destinationName.get(id) ?? id).join(', '),
      tone,
      stateLabel: rule.enabled ? STATE_LABEL[tone] : 'Disabled',
      stateDetail,
      groups,
    };
  });
}

/** Everything the rule page's summary shows about a rule's definition. */
export function prepareRuleSummary(
  rule: AlertRule,
  destinations: readonly Destination[],
  timeZone?: string,
): Array<{ label: string; value: string }> {
  const destinationName = new Map(destinations.map((d) => [d.id, d.name]));
  return [
    { label: 'Condition', value: describeCondition(rule) },
    { label: 'Metric', value: `${METRIC_INFO[rule.metric].label} (${rule.metric})` },
    { label: 'Window', value: formatSeconds(rule.windowSeconds) },
    { label: 'Evaluated every', value: formatSeconds(rule.evaluationIntervalSeconds) },
    { label: 'Minimum samples', value: String(rule.minSampleSize) },
    { label: 'For', value: formatSeconds(rule.forSeconds) },
    {
      label: 'Repeat firing every',
      value: rule.repeatIntervalSeconds === 0 ? 'never' : formatSeconds(rule.repeatIntervalSeconds),
    },
    { label: 'Filters', value: filtersLabel(rule.filters) },
    {
      label: 'Labels',
      value:
        Object.keys(rule.labels).length === 0
          ? 'none'
          : Object.entries(rule.labels)
              .map(([k, v]) => `${k}=${v}`)
              .join(', '),
    },
    {
      label: 'Destinations',
      value:
        rule.destinationIds.length === 0
          ? 'none'
          : rule.destinationIds.map((id) => destinationName.get(id) ?? id).join(', '),
    },
    { label: 'Updated', value: formatEpochMs(rule.updatedAtMs, timeZone) },
  ];
}
