import type { ClickHouseClient } from '@clickhouse/client';
import { msToDateTime64, nextVersionStamp } from '../versionStamp.js';
import { insertRows, num, optNum, optTime, selectRows, type Num } from './alertRows.js';

/**
 * The evaluator's memory of one (rule, group): which state it is in since
 * when, and the last notification it decided on (`notifySeq`, `notifyKind`),
 * written BEFORE the matching outbox rows so a restart can re-create any
 * that are missing, with the same ids.
 */
export interface StoredAlertState {
  projectId: string;
  ruleId: string;
  /** '' for a rule's single series; e.g. `run:<id>` for a live loop. */
  groupKey: string;
  /** `ok` | `pending` | `firing` | `resolved` (owned by @telltale/alerts). */
  state: string;
  /** Identifies one ok → … → resolved episode; notification ids derive from it. */
  episode: string;
  sinceMs: number;
  firedAtMs: number | undefined;
  lastEvalAtMs: number;
  lastValue: number | undefined;
  lastSample: number;
  /** Notifications decided in this episode (firing, repeats, resolved). */
  notifySeq: number;
  /** The last one's kind: '' | `firing` | `resolved`. */
  notifyKind: string;
  lastNotifiedAtMs: number | undefined;
  labels: Record<string, string>;
}

/** One state change, for the history. */
export interface AlertHistoryEvent {
  projectId: string;
  ruleId: string;
  groupKey: string;
  eventId: string;
  atMs: number;
  fromState: string;
  toState: string;
  value: number | undefined;
  threshold: number;
  sample: number;
  message: string;
}

interface StateRow {
  project_id: string;
  rule_id: string;
  group_key: string;
  state: string;
  episode: string;
  since_ms: Num;
  fired_ms: Num | null;
  last_eval_ms: Num;
  last_value: number | null;
  last_sample: Num;
  notify_seq: Num;
  notify_kind: string;
  last_notified_ms: Num | null;
  labels: Record<string, string>;
}

export async function putAlertStates(client: ClickHouseClient, states: readonly StoredAlertState[]): Promise<void> {
  await insertRows(
    client,
    'alert_state',
    states.map((s) => ({
      project_id: s.projectId,
      rule_id: s.ruleId,
      group_key: s.groupKey,
      state: s.state,
      episode: s.episode,
      since: msToDateTime64(s.sinceMs),
      fired_at: optTime(s.firedAtMs),
      last_eval_at: msToDateTime64(s.lastEvalAtMs),
      last_value: s.lastValue ?? null,
      last_sample: s.lastSample,
      notify_seq: s.notifySeq,
      notify_kind: s.notifyKind,
      last_notified_at: optTime(s.lastNotifiedAtMs),
      labels: s.labels,
      version: nextVersionStamp(),
    })),
  );
}

/** Current states: of one project (and rule), or of every project (the evaluator at start). */
export async function listAlertStates(
  client: ClickHouseClient,
  where: { projectId?: string; ruleId?: string } = {},
): Promise<StoredAlertState[]> {
  const conditions = [
    ...(where.projectId === undefined ? [] : ['project_id = {projectId:String}']),
    ...(where.ruleId === undefined ? [] : ['rule_id = {ruleId:String}']),
  ];
  const rows = await selectRows<StateRow>(
    client,
    `SELECT project_id, rule_id, group_key, state, episode, toUnixTimestamp64Milli(since) AS since_ms, toUnixTimestamp64Milli(fired_at) AS fired_ms,
            toUnixTimestamp64Milli(last_eval_at) AS last_eval_ms, last_value, last_sample, notify_seq, notify_kind,
            toUnixTimestamp64Milli(last_notified_at) AS last_notified_ms, labels
     FROM alert_state FINAL
     ${conditions.length === 0 ? '' : `WHERE ${conditions.join(' AND ')}`}
     ORDER BY project_id, rule_id, group_key`,
    { ...where },
  );
  return rows.map((r) => ({
    projectId: r.project_id,
    ruleId: r.rule_id,
    groupKey: r.group_key,
    state: r.state,
    episode: r.episode,
    sinceMs: num(r.since_ms),
    firedAtMs: optNum(r.fired_ms),
    lastEvalAtMs: num(r.last_eval_ms),
    lastValue: r.last_value ?? undefined,
    lastSample: num(r.last_sample),
    notifySeq: num(r.notify_seq),
    notifyKind: r.notify_kind,
    lastNotifiedAtMs: optNum(r.last_notified_ms),
    labels: r.labels,
  }));
}

export async function appendAlertHistory(
  client: ClickHouseClient,
  events: readonly AlertHistoryEvent[],
): Promise<void> {
  await insertRows(
    client,
    'alert_history',
    events.map((e) => ({
      project_id: e.projectId,
      rule_id: e.ruleId,
      group_key: e.groupKey,
      event_id: e.eventId,
      at: msToDateTime64(e.atMs),
      from_state: e.fromState,
      to_state: e.toState,
      value: e.value ?? null,
      threshold: e.threshold,
      sample: e.sample,
      message: e.message,
    })),
  );
}

/** A project's state changes, newest first. */
export async function listAlertHistory(
  client: ClickHouseClient,
  projectId: string,
  opts: { ruleId?: string; fromMs?: number; toMs?: number; limit: number; offset?: number },
): Promise<AlertHistoryEvent[]> {
  const rows = await selectRows<{
    rule_id: string;
    group_key: string;
    event_id: string;
    at_ms: Num;
    from_state: string;
    to_state: string;
    value: number | null;
    threshold: number;
    sample: Num;
    message: string;
  }>(
    client,
    `SELECT rule_id, group_key, event_id, toUnixTimestamp64Milli(at) AS at_ms, from_state, to_state, value, threshold, sample, message
     FROM alert_history FINAL
     WHERE project_id = {projectId:String}
       ${opts.ruleId === undefined ? '' : 'AND rule_id = {ruleId:String}'}
       ${opts.fromMs === undefined ? '' : 'AND at >= fromUnixTimestamp64Milli({fromMs:Int64})'}
       ${opts.toMs === undefined ? '' : 'AND at < fromUnixTimestamp64Milli({toMs:Int64})'}
     ORDER BY at DESC, event_id DESC
     LIMIT {limit:UInt32} OFFSET {offset:UInt32}`,
    { projectId, ...opts, offset: opts.offset ?? 0 },
  );
  return rows.map((r) => ({
    projectId,
    ruleId: r.rule_id,
    groupKey: r.group_key,
    eventId: r.event_id,
    atMs: num(r.at_ms),
    fromState: r.from_state,
    toState: r.to_state,
    value: r.value ?? undefined,
    threshold: r.threshold,
    sample: num(r.sample),
    message: r.message,
  }));
}
