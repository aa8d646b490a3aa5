import { join } from 'node:path';
import { WebhookReceiver } from '@telltale/alerts';
import type { Browser, Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS_DIR, closeChromium, launchChromium } from './harness/browser.js';
import { sendFlakyCheckoutRuns } from './harness/checkoutSuccessRule.js';
import { TelltaleProcess } from './harness/TelltaleProcess.js';

// The receiver listens on loopback: the operator's allowance lets destinations reach it.
const ARGS = ['--alerts-allow-private', '127.0.0.0/8'];

interface Destination {
  id: string;
  name: string;
  url: string;
  enabled: boolean;
  secretPrefixes: string[];
}
interface Rule {
  id: string;
  name: string;
  description: string;
  metric: string;
  comparison: string;
  threshold: number;
  windowSeconds: number;
  evaluationIntervalSeconds: number;
  minSampleSize: number;
  forSeconds: number;
  repeatIntervalSeconds: number;
  filters: Record<string, string>;
  labels: Record<string, string>;
  destinationIds: string[];
}
/** The parts of the rule body's JSON schema the form's choices must match. */
interface RuleBodySchema {
  properties: Record<'metric' | 'comparison' | 'cause' | 'percentile', { enum: string[] }>;
}
interface State {
  groupKey: string;
  state: string;
  lastValue?: number;
  lastSample: number;
}
interface HistoryEvent {
  eventId: string;
  fromState: string;
  toState: string;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function api<T>(
  proc: TelltaleProcess,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const res = await fetch(`${proc.url}/api/v1${path}`, {
    method,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as T };
}

async function until<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(250);
  }
}

// Bounds are generous: on a loaded 2-core machine a page render after an API change can take tens of seconds.
describe('alerts in the dashboard (real server, real receiver, real browser)', { timeout: 90_000 }, () => {
  let telltale: TelltaleProcess;
  let receiver: WebhookReceiver;
  let browser: Browser;
  let page: Page;
  let destinationId = '';
  let secret = '';
  let ruleId = '';

  beforeAll(async () => {
    telltale = await TelltaleProcess.start({ args: ARGS });
    receiver = await WebhookReceiver.start();
    // A flaky agent through the SDK and OTLP: 6 of its 10 runs fail, so end-to-end success is 40%.
    await sendFlakyCheckoutRuns(telltale.url);
    await until('the 10 runs to be stored', 20_000, async () => {
      const runs = await telltale.getJson<{ total: number }>('/api/v1/runs?service=shop&limit=1');
      return runs.body.total === 10 ? true : undefined;
    });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    page.setDefaultTimeout(40_000);
  });
  afterAll(async () => {
    await closeChromium(browser);
    await receiver?.close();
    await telltale?.dispose();
  });

  it('creates a destination (a refused URL shows the server error; the secret is shown once) and the API has it', async () => {
    await page.goto(`${telltale.url}/runs`);
    await page.click('[data-testid="nav-alerts"]');
    await page.waitForSelector('[data-testid="alert-rules-table"], [data-testid="status-empty"]');
    await page.click('[data-testid="alerts-tab-destinations"]');
    await page.waitForSelector('text=No destinations yet');
    await page.click('[data-testid="new-destination"]');

    // The SSRF guard refuses the cloud metadata address even with loopback allowed: the 400 is shown as the server said it.
    await page.fill('[data-testid="destination-field-name"]', 'on-call');
    await page.fill('[data-testid="destination-field-url"]', 'http://169.254.169.254/latest/meta-data');
    await page.click('[data-testid="destination-submit"]');
    const refusal = await page.waitForSelector('[data-testid="destination-server-error"]');
    expect(await refusal.textContent()).toMatch(/BAD_REQUEST.*refused/);

    await page.fill('[data-testid="destination-field-url"]', receiver.url);
    await page.click('[data-testid="destination-submit"]');
    await page.waitForSelector('[data-testid="secret-reveal"]');
    secret = await page.inputValue('[data-testid="secret-value"]');
    expect(secret).toMatch(/^whsec_/);
    await page.screenshot({ path: join(ARTIFACTS_DIR, 'alerts-destination-created.png'), fullPage: true });

    const { body } = await api<{ destinations: Destination[] }>(telltale, 'GET', '/alerts/destinations');
    expect(body.destinations).toHaveLength(1);
    const [created] = body.destinations;
    expect(created).toMatchObject({
      name: 'on-call',
      url: receiver.url,
      enabled: true,
      secretPrefixes: [`${secret.slice(0, 10)}…`],
    });
    destinationId = created!.id;
    const row = await page.waitForSelector(`[data-testid="destination-row"][data-destination-id="${destinationId}"]`);
    expect(await row.textContent()).toContain(receiver.url);
    // Once dismissed, the secret is gone from the page for good.
    await page.click('[data-testid="secret-dismiss"]');
    expect(await page.$('[data-testid="secret-value"]')).toBeNull();
    expect(await page.content()).not.toContain(secret);
  });

  it('sends a test notification from the UI; it arrives signed; the delivery log shows its attempt and redelivers it', async () => {
    await page.click(
      `[data-testid="destination-row"][data-destination-id="${destinationId}"] [data-testid="destination-test"]`,
    );
    const result = await page.waitForSelector('[data-testid="test-result"]');
    expect(await result.textContent()).toContain('Delivered (HTTP 200)');
    const [test] = await receiver.waitFor(1, 10_000);
    const payload = new Webhook(secret).verify(test!.body, test!.headers as Record<string, string>) as {
      type: string;
      status: string;
    };
    expect(payload).toMatchObject({ type: 'alert.test', status: 'firing' });
    const webhookId = String(test!.headers['webhook-id']);

    await page.click('[data-testid="alerts-tab-deliveries"]');
    const row = await page.waitForSelector(`[data-testid="notification-row"][data-notification-id="${webhookId}"]`);
    expect(await row.getAttribute('data-kind')).toBe('test');
    expect(await row.getAttribute('data-state')).toBe('delivered');
    await page.selectOption('[data-testid="deliveries-filter-state"]', 'failed');
    await page.waitForSelector('text=No failed notifications');
    await page.selectOption('[data-testid="deliveries-filter-state"]', '');
    await page.click(
      `[data-testid="notification-row"][data-notification-id="${webhookId}"] [data-testid="notification-toggle"]`,
    );
    await page.waitForSelector('[data-testid="attempt-row"][data-outcome="delivered"]');
    expect(await page.textContent('[data-testid="attempts-table"]')).toContain('HTTP 200');
    await page.screenshot({ path: join(ARTIFACTS_DIR, 'alerts-delivery-log.png'), fullPage: true });

    await page.click('[data-testid="notification-redeliver"]');
    await page.waitForSelector('[data-testid="redeliver-queued"]');
    const [, again] = await receiver.waitFor(2, 10_000);
    expect(again!.headers['webhook-id']).toBe(webhookId);
    expect(again!.body).toBe(test!.body);
  });

  it('rotates the secret and disables / re-enables the destination from the UI', async () => {
    await page.click('[data-testid="alerts-tab-destinations"]');
    const row = `[data-testid="destination-row"][data-destination-id="${destinationId}"]`;
    await page.click(`${row} [data-testid="destination-rotate"]`);
    await page.waitForSelector('[data-testid="secret-reveal"]');
    const rotated = await page.inputValue('[data-testid="secret-value"]');
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
    const after = await api<{ destination: Destination }>(telltale, 'GET', `/alerts/destinations/${destinationId}`);
    expect(after.body.destination.secretPrefixes).toEqual([`${rotated.slice(0, 10)}…`, `${secret.slice(0, 10)}…`]);
    secret = rotated;
    await page.click('[data-testid="secret-dismiss"]');

    await page.click(`${row} [data-testid="destination-toggle"]`);
    await page.waitForSelector(`${row}[data-enabled="false"]`);
    expect(
      (await api<{ destination: Destination }>(telltale, 'GET', `/alerts/destinations/${destinationId}`)).body
        .destination.enabled,
    ).toBe(false);
    await page.click(`${row} [data-testid="destination-toggle"]`);
    await page.waitForSelector(`${row}[data-enabled="true"]`);
    expect(
      (await api<{ destination: Destination }>(telltale, 'GET', `/alerts/destinations/${destinationId}`)).body
        .destination.enabled,
    ).toBe(true);
  });

  it('creates a rule in the form (client-side and server-side errors shown) and the API has exactly that rule', async () => {
    // A destination deleted behind the form's back: only the server can refuse it.
    const doomed = await api<{ destination: Destination }>(telltale, 'POST', '/alerts/destinations', {
      name: 'doomed',
      url: receiver.url,
    });
    await page.goto(`${telltale.url}/alerts`);
    await page.waitForSelector('text=No alert rules yet');
    await page.click('[data-testid="new-rule"]');
    await page.waitForSelector(
      `[data-testid="rule-field-destination"][data-destination-id="${doomed.body.destination.id}"]`,
    );

    // The form offers exactly the choices the server's rule schema (its OpenAPI document) accepts.
    const doc = await api<{
      paths: Record<
        string,
        { post?: { requestBody: { content: { 'application/json': { schema: RuleBodySchema } } } } }
      >;
    }>(telltale, 'GET', '/openapi.json');
    const accepted = doc.body.paths['/alerts/rules']!.post!.requestBody.content['application/json'].schema.properties;
    const options = (select: string) =>
      page.$$eval(`[data-testid="${select}"] option`, (els) =>
        els.map((el) => (el as HTMLOptionElement).value).filter((v) => v !== ''),
      );
    expect(await options('rule-field-metric')).toEqual(accepted.metric.enum);
    expect(await options('rule-field-comparison')).toEqual(accepted.comparison.enum);
    await page.selectOption('[data-testid="rule-field-metric"]', 'failure_cause_share');
    expect(await options('rule-field-cause')).toEqual(accepted.cause.enum);
    await page.selectOption('[data-testid="rule-field-metric"]', 'run_latency');
    expect(await options('rule-field-percentile')).toEqual(accepted.percentile.enum);

    await page.fill('[data-testid="rule-field-threshold"]', 'eighty');
    await page.fill('[data-testid="rule-field-window"]', '5s');
    await page.click('[data-testid="rule-submit"]');
    expect(await page.textContent('[data-testid="rule-error-name"]')).toBe('a rule needs a name');
    expect(await page.textContent('[data-testid="rule-error-threshold"]')).toBe('a number');
    expect(await page.textContent('[data-testid="rule-error-window"]')).toBe('at least 10s');

    await page.fill('[data-testid="rule-field-name"]', 'checkout success');
    await page.fill('[data-testid="rule-field-description"]', 'checkout agent end-to-end success');
    await page.selectOption('[data-testid="rule-field-metric"]', 'e2e_success');
    await page.selectOption('[data-testid="rule-field-comparison"]', 'lt');
    await page.fill('[data-testid="rule-field-threshold"]', '0.3');
    await page.fill('[data-testid="rule-field-window"]', '10m');
    await page.fill('[data-testid="rule-field-interval"]', '1s');
    await page.fill('[data-testid="rule-field-minSamples"]', '5');
    await page.fill('[data-testid="rule-field-for"]', '0s');
    await page.fill('[data-testid="rule-field-repeat"]', '0s');
    await page.fill('[data-testid="rule-field-filter-agent"]', 'checkout');
    await page.fill('[data-testid="rule-field-labels"]', 'team=payments\nseverity=page');
    await page.check(`[data-testid="rule-field-destination"][data-destination-id="${destinationId}"]`);
    await page.check(`[data-testid="rule-field-destination"][data-destination-id="${doomed.body.destination.id}"]`);
    expect((await api(telltale, 'DELETE', `/alerts/destinations/${doomed.body.destination.id}`)).status).toBe(200);
    await page.screenshot({ path: join(ARTIFACTS_DIR, 'alerts-rule-form.png'), fullPage: true });
    await page.click('[data-testid="rule-submit"]');
    const refusal = await page.waitForSelector('[data-testid="rule-server-error"]');
    expect(await refusal.textContent()).toContain(`no destination ${doomed.body.destination.id}`);
    expect((await api<{ rules: Rule[] }>(telltale, 'GET', '/alerts/rules')).body.rules).toEqual([]);

    await page.uncheck(`[data-testid="rule-field-destination"][data-destination-id="${doomed.body.destination.id}"]`);
    await page.click('[data-testid="rule-submit"]');
    await page.waitForURL(/\/alerts\/rules\/rule_/);
    ruleId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
    await page.waitForSelector(`[data-testid="alert-rule-page"][data-rule-id="${ruleId}"]`);

    const { body } = await api<{ rule: Rule }>(telltale, 'GET', `/alerts/rules/${ruleId}`);
    expect(body.rule).toMatchObject({
      name: 'checkout success',
      description: 'checkout agent end-to-end success',
      metric: 'e2e_success',
      comparison: 'lt',
      threshold: 0.3,
      windowSeconds: 600,
      evaluationIntervalSeconds: 1,
      minSampleSize: 5,
      forSeconds: 0,
      repeatIntervalSeconds: 0,
      filters: { agent: 'checkout' },
      labels: { team: 'payments', severity: 'page' },
      destinationIds: [destinationId],
    });
    expect(await page.textContent('[data-testid="rule-summary-condition"]')).toBe('End-to-end success < 30%');
    // 40% is not below 30%: the rule is evaluated and stays ok.
    await page.waitForSelector('[data-testid="alert-state-row"][data-state="ok"]', { timeout: 40_000 });
  });

  it(
    'edits the threshold in the UI; the API sees it; the rule fires and the UI shows the state and history the API has',
    { timeout: 150_000 },
    async () => {
      await page.click('[data-testid="rule-edit"]');
      expect(await page.inputValue('[data-testid="rule-field-threshold"]')).toBe('0.3');
      expect(await page.inputValue('[data-testid="rule-field-labels"]')).toBe('team=payments\nseverity=page');
      await page.fill('[data-testid="rule-field-threshold"]', '0.8');
      // The save's answer is held until the page's own polling has fetched the edited rule and rendered it: the
      // editor must still close, as it must whenever the page re-renders around it before a save settles.
      const rulePath = `/api/v1/alerts/rules/${encodeURIComponent(ruleId)}`;
      const polledEdit = page.waitForResponse(
        async (res) =>
          res.request().method() === 'GET' &&
          new URL(res.url()).pathname === rulePath &&
          // a response whose body cannot be read is not the one waited for
          ((await res.json().catch(() => undefined)) as { rule?: Rule } | undefined)?.rule?.threshold === 0.8,
        { timeout: 30_000 },
      );
      await page.route(
        (url) => url.pathname === rulePath,
        async (route) => {
          if (route.request().method() !== 'PUT') return route.fallback();
          const saved = await route.fetch();
          await polledEdit;
          await page.evaluate(() => new Promise((r) => setTimeout(() => requestAnimationFrame(r), 50)));
          await route.fulfill({ response: saved });
        },
      );
      await page.click('[data-testid="rule-submit"]');
      await page.waitForSelector('[data-testid="rule-summary-condition"]:has-text("< 80%")');
      await page.unrouteAll();
      const edited = await api<{ rule: Rule }>(telltale, 'GET', `/alerts/rules/${ruleId}`);
      expect(edited.body.rule).toMatchObject({
        threshold: 0.8,
        name: 'checkout success',
        labels: { team: 'payments', severity: 'page' },
        destinationIds: [destinationId],
      });

      const firing = await until('the rule to fire', 30_000, async () => {
        const { body } = await api<{ states: State[] }>(telltale, 'GET', `/alerts/rules/${ruleId}`);
        const state = body.states.find((s) => s.groupKey === '');
        return state?.state === 'firing' ? state : undefined;
      });
      expect(firing).toMatchObject({ lastValue: 0.4, lastSample: 10 });
      await page.waitForSelector('[data-testid="alert-rule-state"][data-state="firing"]', { timeout: 40_000 });
      const stateRow = await page.waitForSelector('[data-testid="alert-state-row"][data-state="firing"]');
      expect(await stateRow.$eval('[data-testid="alert-state-value"]', (el) => el.textContent)).toBe('40%');

      const history = await api<{ events: HistoryEvent[] }>(telltale, 'GET', `/alerts/history?ruleId=${ruleId}`);
      expect(history.body.events.map((e) => [e.fromState, e.toState])).toEqual([['ok', 'firing']]);
      await page.waitForSelector(
        `[data-testid="alert-history-row"][data-event-id="${history.body.events[0]!.eventId}"]`,
        { timeout: 40_000 },
      );
      const uiHistory = await page.$$eval('[data-testid="alert-history-row"]', (els) =>
        els.map((el) => [el.getAttribute('data-event-id'), el.getAttribute('data-from'), el.getAttribute('data-to')]),
      );
      expect(uiHistory).toEqual(history.body.events.map((e) => [e.eventId, e.fromState, e.toState]));
      await page.screenshot({ path: join(ARTIFACTS_DIR, 'alerts-rule-firing.png'), fullPage: true });

      // The firing notification reached the receiver, signed with the current secret.
      const received = await until('the firing webhook', 15_000, () => {
        const hit = receiver.received.find((r) => (JSON.parse(r.body) as { type?: string }).type === 'alert.firing');
        return Promise.resolve(hit);
      });
      const notice = new Webhook(secret).verify(received.body, received.headers as Record<string, string>) as {
        status: string;
        value: number;
        threshold: number;
        dashboardUrl: string;
      };
      expect(notice).toMatchObject({ status: 'firing', value: 0.4, threshold: 0.8 });
      // Its link opens this rule in the dashboard.
      await page.goto(notice.dashboardUrl);
      await page.waitForSelector(`[data-testid="alert-rule-page"][data-rule-id="${ruleId}"]`);

      // The list and the history tab show the same.
      await page.click('[data-testid="nav-alerts"]');
      // the row renders before its state arrives ('unknown' until then, seen under load): wait for the state the API has
      const listRow = await page.waitForSelector(
        `[data-testid="alert-rule-row"][data-rule-id="${ruleId}"][data-state="firing"]`,
        { timeout: 40_000 },
      );
      expect(await listRow.getAttribute('data-state')).toBe('firing');
      expect(await listRow.$eval('[data-testid="alert-rule-value"]', (el) => el.textContent)).toBe('40% (n = 10)');
      await page.click('[data-testid="alerts-tab-history"]');
      await page.selectOption('[data-testid="history-filter-rule"]', ruleId);
      await page.waitForSelector(
        `[data-testid="alert-history-row"][data-event-id="${history.body.events[0]!.eventId}"]`,
      );
      await page.screenshot({ path: join(ARTIFACTS_DIR, 'alerts-history.png'), fullPage: true });
    },
  );

  it('deletes the rule from the UI and the API no longer has it', async () => {
    await page.click('[data-testid="alerts-tab-rules"]');
    await page.click(`[data-testid="alert-rule-row"][data-rule-id="${ruleId}"] [data-testid="alert-rule-link"]`);
    await page.waitForSelector('[data-testid="rule-delete"]');
    await page.click('[data-testid="rule-delete"]');
    await page.click('[data-testid="rule-delete-confirm"]');
    await page.waitForURL((url) => url.pathname === '/alerts');
    await page.waitForSelector('text=No alert rules yet');
    expect((await api(telltale, 'GET', `/alerts/rules/${ruleId}`)).status).toBe(404);
    expect((await api<{ rules: Rule[] }>(telltale, 'GET', '/alerts/rules')).body.rules).toEqual([]);
    await page.screenshot({ path: join(ARTIFACTS_DIR, 'alerts-rule-deleted.png'), fullPage: true });
  });
});
