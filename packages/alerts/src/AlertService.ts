import type { Store, StoreRows } from '@telltale/store';
import { TelltaleError, TelltaleErrorCode } from '@telltale/semconv';
import type { AlertDispatcher } from './delivery/AlertDispatcher.js';
import { formatPayload, summarise, type DestinationFormat } from './delivery/payloads.js';
import type { AttemptOutcome } from './delivery/retryPolicy.js';
import { generateSecret, isSecret } from './delivery/signWebhook.js';
import { checkUrl, SsrfError, type Resolver, type SsrfPolicy } from './delivery/ssrfGuard.js';
import { isFormat, resolveUrl } from './evaluation/outbox.js';
import type { AlertRule, AlertRuleSpec } from './rules/AlertRule.js';
import { fromStoredRule, newId, toStoredRule } from './rules/ruleRecords.js';

/** A destination as the API shows it: never its secrets, only how many there are and their first characters. */
export interface DestinationView {
  id: string;
  name: string;
  format: DestinationFormat;
  url: string;
  /** `whsec_abcd…` of each signing secret, newest first. */
  secretPrefixes: string[];
  enabled: boolean;
  disabledAtMs: number | null;
  disabledReason: string;
  createdAtMs: number;
  updatedAtMs: number;
}

export interface DestinationInput {
  name: string;
  url: string;
  format: DestinationFormat;
  /** A `whsec_…` secret to use; default: a new one (returned once). */
  secret?: string | undefined;
}

export interface NotificationView extends Omit<StoreRows.StoredNotification, 'body' | 'deliveredAtMs'> {
  deliveredAtMs: number | null;
  /** The payload as sent (parsed JSON). */
  payload: unknown;
}

const notFound = (what: string): TelltaleError =>
  new TelltaleError({ code: TelltaleErrorCode.NOT_FOUND, message: what });
const badRequest = (message: string): TelltaleError =>
  new TelltaleError({ code: TelltaleErrorCode.BAD_REQUEST, message });

export function destinationView(d: StoreRows.StoredAlertDestination): DestinationView {
  return {
    id: d.destinationId,
    name: d.name,
    format: isFormat(d.format) ? d.format : 'standard',
    url: d.url,
    secretPrefixes: d.secrets.map((s) => `${s.slice(0, 10)}…`),
    enabled: d.disabledAtMs === undefined,
    disabledAtMs: d.disabledAtMs ?? null,
    disabledReason: d.disabledReason,
    createdAtMs: d.createdAtMs,
    updatedAtMs: d.updatedAtMs,
  };
}

function notificationView(n: StoreRows.StoredNotification): NotificationView {
  const { body, deliveredAtMs, ...rest } = n;
  let payload: unknown = body;
  try {
    payload = JSON.parse(body);
  } catch {
    // shown as text
  }
  return { ...rest, deliveredAtMs: deliveredAtMs ?? null, payload };
}

/**
 * Everything the alerts API does, per project: rules, destinations (URLs
 * checked by the SSRF guard when saved), state and history, the delivery
 * log, test notifications and redelivery.
 */
export class AlertService {
  constructor(
    private readonly opts: {
      store: Store;
      dispatcher: AlertDispatcher;
      policy: SsrfPolicy;
      resolve?: Resolver;
      clock?: () => number;
      dashboardUrl: string | (() => string);
    },
  ) {}

  private now(): number {
    return (this.opts.clock ?? Date.now)();
  }

  // ── rules ──
  async listRules(projectId: string): Promise<AlertRule[]> {
    return (await this.opts.store.alerts.listAlertRules(projectId))
      .map(fromStoredRule)
      .filter((r): r is AlertRule => r !== undefined);
  }

  async getRule(projectId: string, ruleId: string): Promise<AlertRule> {
    const stored = await this.opts.store.alerts.getAlertRule(projectId, ruleId);
    const rule = stored === undefined ? undefined : fromStoredRule(stored);
    if (rule === undefined) throw notFound(`no alert rule ${ruleId}`);
    return rule;
  }

  async createRule(projectId: string, spec: AlertRuleSpec): Promise<AlertRule> {
    await this.checkDestinations(projectId, spec.destinationIds);
    const now = this.now();
    const rule: AlertRule = { ...spec, id: newId('rule'), projectId, createdAtMs: now, updatedAtMs: now };
    await this.opts.store.alerts.putAlertRule(toStoredRule(rule));
    return rule;
  }

  /** Replaces a rule's definition (its state carries on). */
  async updateRule(projectId: string, ruleId: string, spec: AlertRuleSpec): Promise<AlertRule> {
    const current = await this.getRule(projectId, ruleId);
    await this.checkDestinations(projectId, spec.destinationIds);
    const rule: AlertRule = {
      ...spec,
      id: ruleId,
      projectId,
      createdAtMs: current.createdAtMs,
      updatedAtMs: this.now(),
    };
    await this.opts.store.alerts.putAlertRule(toStoredRule(rule));
    return rule;
  }

  async deleteRule(projectId: string, ruleId: string): Promise<void> {
    const stored = await this.opts.store.alerts.getAlertRule(projectId, ruleId);
    if (stored === undefined) throw notFound(`no alert rule ${ruleId}`);
    // the deletion keeps the definition: an evaluator that was down resolves the rule's open alerts with it
    await this.opts.store.alerts.deleteAlertRule(stored);
  }

  private async checkDestinations(projectId: string, ids: readonly string[]): Promise<void> {
    const known = new Set((await this.opts.store.alerts.listAlertDestinations(projectId)).map((d) => d.destinationId));
    const missing = ids.filter((id) => !known.has(id));
    if (missing.length > 0) throw badRequest(`no destination ${missing.join(', ')} in this project`);
  }

  // ── state and history ──
  /** The states of the project's rules (a deleted rule's are not listed: the evaluator resolved them). */
  async states(projectId: string, ruleId?: string): Promise<StoreRows.StoredAlertState[]> {
    const [states, rules] = await Promise.all([
      this.opts.store.alerts.listAlertStates({ projectId, ...(ruleId === undefined ? {} : { ruleId }) }),
      this.opts.store.alerts.listAlertRules(projectId),
    ]);
    const live = new Set(rules.map((r) => r.ruleId));
    return states.filter((s) => live.has(s.ruleId));
  }

  history(
    projectId: string,
    opts: { ruleId?: string; fromMs?: number; toMs?: number; limit: number; offset?: number },
  ): Promise<StoreRows.AlertHistoryEvent[]> {
    return this.opts.store.alerts.listAlertHistory(projectId, opts);
  }

  // ── destinations ──
  async listDestinations(projectId: string): Promise<DestinationView[]> {
    return (await this.opts.store.alerts.listAlertDestinations(projectId)).map(destinationView);
  }

  private async destination(projectId: string, id: string): Promise<StoreRows.StoredAlertDestination> {
    const d = await this.opts.store.alerts.getAlertDestination(projectId, id);
    if (d === undefined) throw notFound(`no destination ${id}`);
    return d;
  }

  async getDestination(projectId: string, id: string): Promise<DestinationView> {
    return destinationView(await this.destination(projectId, id));
  }

  /** The URL must pass the SSRF guard now (and passes it again at every send). */
  private async checkUrl(url: string): Promise<void> {
    try {
      await checkUrl(url, this.opts.policy, this.opts.resolve);
    } catch (err) {
      if (err instanceof SsrfError) throw badRequest(`destination URL refused: ${err.message}`);
      throw err;
    }
  }

  /** Creates a destination; the signing secret is returned here and never again. */
  async createDestination(
    projectId: string,
    input: DestinationInput,
  ): Promise<{ destination: DestinationView; secret: string }> {
    await this.checkUrl(input.url);
    if (input.secret !== undefined && !isSecret(input.secret))
      throw badRequest('a secret is whsec_ followed by base64 (at least 15 bytes)');
    const secret = input.secret ?? generateSecret();
    const now = this.now();
    const d: StoreRows.StoredAlertDestination = {
      projectId,
      destinationId: newId('dst'),
      name: input.name,
      format: input.format,
      url: input.url,
      secrets: [secret],
      disabledAtMs: undefined,
      disabledReason: '',
      createdAtMs: now,
      updatedAtMs: now,
    };
    await this.opts.store.alerts.putAlertDestination(d);
    return { destination: destinationView(d), secret };
  }

  /** Changes name, URL or format; `enabled: true` re-enables a destination a 410 disabled. */
  async updateDestination(
    projectId: string,
    id: string,
    change: {
      name?: string | undefined;
      url?: string | undefined;
      format?: DestinationFormat | undefined;
      enabled?: boolean | undefined;
    },
  ): Promise<DestinationView> {
    const current = await this.destination(projectId, id);
    if (change.url !== undefined) await this.checkUrl(change.url);
    const now = this.now();
    const disabled =
      change.enabled === undefined ? current.disabledAtMs : change.enabled ? undefined : (current.disabledAtMs ?? now);
    const next: StoreRows.StoredAlertDestination = {
      ...current,
      name: change.name ?? current.name,
      url: change.url ?? current.url,
      format: change.format ?? current.format,
      disabledAtMs: disabled,
      disabledReason:
        disabled === undefined
          ? ''
          : current.disabledAtMs === undefined
            ? 'disabled by an operator'
            : current.disabledReason,
      updatedAtMs: now,
    };
    await this.opts.store.alerts.putAlertDestination(next);
    return destinationView(next);
  }

  /** Adds a new signing secret (first); keeps the `keep` newest previous ones signing too, for the receiver's switch-over. */
  async rotateSecret(
    projectId: string,
    id: string,
    keep: number,
  ): Promise<{ destination: DestinationView; secret: string }> {
    const current = await this.destination(projectId, id);
    const secret = generateSecret();
    const next = {
      ...current,
      secrets: [secret, ...current.secrets.slice(0, Math.max(0, keep))],
      updatedAtMs: this.now(),
    };
    await this.opts.store.alerts.putAlertDestination(next);
    return { destination: destinationView(next), secret };
  }

  /** Refused (CONFLICT, naming them) while rules notify it: their definitions would name a destination that is gone. */
  async deleteDestination(projectId: string, id: string): Promise<void> {
    await this.destination(projectId, id);
    const users = (await this.listRules(projectId)).filter((r) => r.destinationIds.includes(id));
    if (users.length > 0)
      throw new TelltaleError({
        code: TelltaleErrorCode.CONFLICT,
        message: `destination ${id} is used by ${users.length === 1 ? 'rule' : 'rules'} ${users.map((r) => `${r.id} (${r.name})`).join(', ')}: remove it from them, or delete them, first`,
      });
    await this.opts.store.alerts.deleteAlertDestination(projectId, id);
  }

  /** Sends a test notification now (one attempt; retried later like any other when it fails) and returns it with its attempt. */
  async sendTest(
    projectId: string,
    id: string,
  ): Promise<{ notification: NotificationView; outcome: AttemptOutcome; attempt: StoreRows.DeliveryAttempt }> {
    const d = await this.destination(projectId, id);
    const now = this.now();
    const rule = {
      id: 'test',
      name: 'Test notification',
      description: 'Sent with "send test notification"',
      metric: 'e2e_success',
      comparison: 'lt',
      threshold: 0.95,
      windowSeconds: 3600,
      filters: {},
      labels: {},
    } as const;
    const notice = {
      status: 'firing' as const,
      test: true,
      projectId,
      rule,
      groupKey: '',
      groupLabels: {},
      value: 0.9,
      sampleSize: 100,
      episode: newId('ep'),
      sequence: 1,
      startsAtMs: now,
      endsAtMs: undefined,
      evaluatedAtMs: now,
      dashboardUrl: `${resolveUrl(this.opts.dashboardUrl).replace(/\/+$/, '')}/alerts?project=${encodeURIComponent(projectId)}`,
      summary: `test: ${summarise({ rule, value: 0.9, sampleSize: 100, status: 'firing' })}`,
    };
    const n: StoreRows.StoredNotification = {
      projectId,
      notificationId: newId('msg'),
      destinationId: id,
      ruleId: '',
      groupKey: '',
      kind: 'test',
      body: formatPayload(isFormat(d.format) ? d.format : 'standard', notice),
      deliveryState: 'pending',
      attempts: 0,
      nextAttemptAtMs: now,
      createdAtMs: now,
      deliveredAtMs: undefined,
      lastError: '',
    };
    await this.opts.store.alerts.putNotifications([n]);
    const { outcome, attempt } = await this.opts.dispatcher.attempt(n);
    return { notification: await this.notification(projectId, n.notificationId), outcome, attempt };
  }

  // ── delivery log ──
  async notifications(
    projectId: string,
    opts: { destinationId?: string; ruleId?: string; deliveryState?: string; limit: number; offset?: number },
  ): Promise<NotificationView[]> {
    return (await this.opts.store.alerts.listNotifications(projectId, opts)).map(notificationView);
  }

  async notification(projectId: string, id: string): Promise<NotificationView> {
    const n = await this.opts.store.alerts.getNotification(projectId, id);
    if (n === undefined) throw notFound(`no notification ${id}`);
    return notificationView(n);
  }

  attempts(projectId: string, id: string): Promise<StoreRows.DeliveryAttempt[]> {
    return this.opts.store.alerts.listDeliveryAttempts(projectId, id);
  }

  /** Sends a notification again, same `webhook-id` and body, whatever became of it. */
  async redeliver(projectId: string, id: string): Promise<NotificationView> {
    const n = await this.opts.store.alerts.getNotification(projectId, id);
    if (n === undefined) throw notFound(`no notification ${id}`);
    const next = { ...n, deliveryState: 'pending', nextAttemptAtMs: this.now(), deliveredAtMs: undefined };
    await this.opts.store.alerts.putNotifications([next]);
    this.opts.dispatcher.wake();
    return notificationView(next);
  }
}
