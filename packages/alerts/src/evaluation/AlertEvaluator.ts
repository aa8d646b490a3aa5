import { randomUUID } from 'node:crypto';
import type { Store, StoreRows } from '@telltale/store';
import { breaches, type AlertRule } from '../rules/AlertRule.js';
import type { Observation } from '../rules/measureRule.js';
import { fromStoredRule, newId } from '../rules/ruleRecords.js';
import {
  advance,
  initialState,
  type AlertStateName,
  type NotifyKind,
  type SeriesState,
  type Timing,
  type Verdict,
} from './advance.js';
import type { AlertEventSink, LiveAlertEvent } from './LiveAlertEvent.js';
import { enqueueNotifications, resolveUrl } from './outbox.js';

export interface AlertEvaluatorOptions {
  store: Store;
  /** Measures a rule's metric over its window ending at `nowMs` (the server passes measureRule over its Analytics). */
  measure: (rule: AlertRule, nowMs: number) => Promise<Observation>;
  /** The dashboard's base URL, for links in notifications (a function: known once the server listens). */
  dashboardUrl: string | (() => string);
  /** Epoch ms (tests inject a clock). */
  clock?: () => number;
  /** How often due rules are looked for (default 1 s). */
  tickMs?: number;
  /** Outbox rows were written: wake the dispatcher. */
  onEnqueued?: () => void;
  onError?: (err: unknown, ruleId?: string) => void;
  /** Each scheduled evaluation's result: breaching, ok, no data (too few samples), or error (operators' counters). */
  onEvaluated?: (result: 'breaching' | 'ok' | 'no_data' | 'error') => void;
}

const key = (projectId: string, ruleId: string, groupKey = ''): string =>
  `${projectId}\u0000${ruleId}\u0000${groupKey}`;

/** How far back a restart re-creates notifications missing from the outbox. */
const RECONCILE_WINDOW_MS = 24 * 3_600_000;

/**
 * Evaluates every enabled rule of every project at its interval and keeps
 * each (rule, group)'s state (see advance.ts) in ClickHouse. A transition
 * that notifies is written to `alert_state` first (with the notification's
 * sequence), then to the outbox; on start, notifications the states decided
 * but the outbox lacks (a crash in between) are written with the same ids.
 * One evaluator per ClickHouse: a second would evaluate rules twice.
 */
/** How stale the rules live events are matched against may be (the periodic evaluation re-reads them as often). */
const LIVE_RULES_TTL_MS = 1_000;

export class AlertEvaluator implements AlertEventSink {
  private readonly states = new Map<string, StoreRows.StoredAlertState>();
  private readonly nextEvalAt = new Map<string, number>();
  private readonly clock: () => number;
  private timer: NodeJS.Timeout | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private started = false;
  /** The rules live events were last matched against: loops can be many per second, rules change rarely. */
  private liveRules: { atMs: number; rules: Map<string, AlertRule> } | undefined;
  /** The rules of the last tick: one deleted since is resolved with what it was. */
  private known = new Map<string, AlertRule>();

  constructor(private readonly opts: AlertEvaluatorOptions) {
    this.clock = opts.clock ?? Date.now;
  }

  /** Loads the stored states, re-creates missing notifications, then evaluates every `tickMs`. */
  async start(): Promise<void> {
    await this.load();
    this.started = true;
    const tickMs = this.opts.tickMs ?? 1000;
    const loop = (): void => {
      this.timer = setTimeout(() => {
        // a failed tick (storage unreachable) was reported to onError; the next one tries again
        void this.tick()
          .catch(() => undefined)
          .finally(() => {
            if (this.started) loop();
          });
      }, tickMs);
    };
    loop();
  }

  async stop(): Promise<void> {
    this.started = false;
    clearTimeout(this.timer);
    await this.queue.catch(() => undefined);
  }

  /** Reads the states (and repairs the outbox) without starting the timer (tests drive `tick`). */
  async load(): Promise<void> {
    await this.serial(async () => {
      const rules = await this.rules();
      this.known = rules;
      for (const s of await this.opts.store.alerts.listAlertStates()) {
        this.states.set(key(s.projectId, s.ruleId, s.groupKey), s);
        const rule = rules.get(key(s.projectId, s.ruleId));
        if (s.groupKey === '' && rule !== undefined)
          this.nextEvalAt.set(key(s.projectId, s.ruleId), s.lastEvalAtMs + rule.evaluationIntervalSeconds * 1000);
        const recent = s.lastNotifiedAtMs !== undefined && this.clock() - s.lastNotifiedAtMs < RECONCILE_WINDOW_MS;
        if (rule !== undefined && recent) await this.enqueue(rule, s);
      }
      await this.retireDeletedMeanwhile(rules);
    });
  }

  /**
   * Rules deleted while no evaluator ran (or while another one led) leave
   * open states behind: they are resolved here as `retire` does, with the
   * rule as it was when deleted.
   */
  private async retireDeletedMeanwhile(rules: ReadonlyMap<string, AlertRule>): Promise<void> {
    const open = new Map<string, { projectId: string; ruleId: string }>();
    for (const s of this.states.values())
      if ((s.state === 'firing' || s.state === 'pending') && !rules.has(key(s.projectId, s.ruleId)))
        open.set(key(s.projectId, s.ruleId), { projectId: s.projectId, ruleId: s.ruleId });
    if (open.size === 0) return;
    for (const stored of await this.opts.store.alerts.listDeletedAlertRules([...open.values()])) {
      const rule = fromStoredRule(stored);
      if (rule !== undefined) await this.retire(rule, 'deleted');
    }
  }

  /** Evaluates the rules that are due now; returns how many were evaluated. */
  tick(): Promise<number> {
    return this.serial(async () => {
      let evaluated = 0;
      const rules = await this.rules();
      for (const [k, gone] of this.known) if (!rules.has(k)) await this.retire(gone, 'deleted');
      this.known = rules;
      for (const rule of rules.values()) {
        if (!rule.enabled) {
          await this.retire(rule, 'disabled');
          continue;
        }
        const now = this.clock();
        const k = key(rule.projectId, rule.id);
        if ((this.nextEvalAt.get(k) ?? 0) > now) continue;
        this.nextEvalAt.set(k, now + rule.evaluationIntervalSeconds * 1000);
        evaluated++;
        try {
          const obs = await this.opts.measure(rule, now);
          const verdict = verdictOf(rule, obs);
          await this.apply(rule, '', {}, verdict, rule, now);
          this.opts.onEvaluated?.(verdict.breaching === undefined ? 'no_data' : verdict.breaching ? 'breaching' : 'ok');
        } catch (err) {
          this.opts.onEvaluated?.('error');
          this.opts.onError?.(err, rule.id);
        }
      }
      return evaluated;
    });
  }

  /** A live event (see LiveAlertEvent) for every enabled `any_loop` rule of its project; never rejects (failures go to onError). */
  raise(event: LiveAlertEvent): Promise<void> {
    return this.serialReported(async () => {
      const now = this.clock();
      if (this.liveRules === undefined || now - this.liveRules.atMs >= LIVE_RULES_TTL_MS)
        this.liveRules = { atMs: now, rules: await this.rules() };
      for (const rule of this.liveRules.rules.values()) {
        if (!rule.enabled || rule.projectId !== event.projectId || rule.metric !== 'any_loop') continue;
        if (!matchesLabels(rule, event.labels)) continue;
        try {
          const verdict: Verdict = { breaching: event.status === 'firing', value: event.value, sample: 1 };
          await this.apply(
            rule,
            event.groupKey,
            event.labels,
            verdict,
            { forSeconds: 0, repeatIntervalSeconds: rule.repeatIntervalSeconds },
            event.atMs,
          );
        } catch (err) {
          this.opts.onError?.(err, rule.id);
        }
      }
    });
  }

  /**
   * A rule deleted or disabled while it fires is resolved, once per group,
   * notifying its destinations: receivers are not left with an alert that
   * never ends. One pending is back to ok. A deleted rule's states are
   * forgotten here (the stored ones stay, resolved, off the API's list).
   */
  private async retire(rule: AlertRule, why: 'deleted' | 'disabled'): Promise<void> {
    const now = this.clock();
    for (const [k, s] of this.states) {
      if (s.projectId !== rule.projectId || s.ruleId !== rule.id) continue;
      if (s.state === 'firing' || s.state === 'pending') {
        const verdict: Verdict = { breaching: false, value: s.lastValue, sample: s.lastSample };
        try {
          await this.apply(rule, s.groupKey, s.labels, verdict, rule, now, `rule ${why}`);
        } catch (err) {
          this.opts.onError?.(err, rule.id);
          continue;
        }
      }
      if (why === 'deleted') this.states.delete(k);
    }
    if (why === 'deleted') this.nextEvalAt.delete(key(rule.projectId, rule.id));
  }

  /** The current states of a project (as kept in memory, equal to the stored ones). */
  statesOf(projectId: string): StoreRows.StoredAlertState[] {
    return [...this.states.values()].filter((s) => s.projectId === projectId);
  }

  private async apply(
    rule: AlertRule,
    groupKey: string,
    labels: Readonly<Record<string, string>>,
    verdict: Verdict,
    timing: Timing,
    now: number,
    /** Why the state changed, when no evaluation says it (a rule deleted or disabled). */
    reason?: string,
  ): Promise<void> {
    const k = key(rule.projectId, rule.id, groupKey);
    const prev = this.states.get(k);
    const t = advance(prev === undefined ? initialState(now) : toSeries(prev), verdict, timing, now, () => newId('ep'));
    const stored: StoreRows.StoredAlertState = {
      ...t.next,
      projectId: rule.projectId,
      ruleId: rule.id,
      groupKey,
      labels: { ...prev?.labels, ...labels },
    };
    // state first: it records the notification decision the outbox rows are derived from
    await this.opts.store.alerts.putAlertStates([stored]);
    this.states.set(k, stored);
    if (t.changed !== undefined) {
      await this.opts.store.alerts.appendAlertHistory([
        {
          projectId: rule.projectId,
          ruleId: rule.id,
          groupKey,
          eventId: randomUUID(),
          atMs: now,
          fromState: t.changed.from,
          toState: t.changed.to,
          value: verdict.value,
          threshold: rule.threshold,
          sample: verdict.sample,
          message: reason ?? (verdict.breaching === undefined ? 'too few samples' : ''),
        },
      ]);
    }
    if (t.notify !== undefined) await this.enqueue(rule, stored);
  }

  private async enqueue(rule: AlertRule, state: StoreRows.StoredAlertState): Promise<void> {
    const written = await enqueueNotifications(
      this.opts.store,
      rule,
      state,
      resolveUrl(this.opts.dashboardUrl),
      this.clock(),
    );
    if (written > 0) this.opts.onEnqueued?.();
  }

  private async rules(): Promise<Map<string, AlertRule>> {
    const rules = new Map<string, AlertRule>();
    for (const stored of await this.opts.store.alerts.listAlertRules()) {
      const rule = fromStoredRule(stored);
      if (rule === undefined)
        this.opts.onError?.(
          new Error(`rule ${stored.ruleId} of project ${stored.projectId} has a definition that does not parse`),
          stored.ruleId,
        );
      else rules.set(key(rule.projectId, rule.id), rule);
    }
    return rules;
  }

  /** Like serial, but a failure is only reported to onError. */
  private serialReported(fn: () => Promise<void>): Promise<void> {
    return this.serial(fn).catch(() => undefined);
  }

  /** Evaluation, live events and loading never interleave (one writer per state). */
  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.queue.then(fn, fn);
    this.queue = next.catch((err: unknown) => this.opts.onError?.(err));
    return next;
  }
}

function verdictOf(rule: AlertRule, obs: Observation): Verdict {
  const known = obs.value !== undefined && obs.sample >= rule.minSampleSize;
  return {
    breaching: known && obs.value !== undefined ? breaches(rule.comparison, obs.value, rule.threshold) : undefined,
    value: obs.value,
    sample: obs.sample,
  };
}

function matchesLabels(rule: AlertRule, labels: Readonly<Record<string, string>>): boolean {
  const f = rule.filters;
  return (
    (f.agent === undefined || labels.agent === undefined || labels.agent === f.agent) &&
    (f.tool === undefined || labels.tool === undefined || labels.tool === f.tool)
  );
}

/** The stored state as the state machine sees it (states and kinds are only ever written by it). */
function toSeries({
  projectId: _p,
  ruleId: _r,
  groupKey: _g,
  labels: _l,
  ...s
}: StoreRows.StoredAlertState): SeriesState {
  return { ...s, state: s.state as AlertStateName, notifyKind: s.notifyKind as NotifyKind | '' };
}
