import { describe, expect, it } from 'vitest';
import { ruleJson } from '../testing/alertsFixtures';
import { alertsUrls, createAlertRule, deleteAlertRule, fetchAlertRules, fetchAlertStates } from './alertsApi';
import { ApiError } from './ApiError';
import type { AlertRuleSpec } from '@telltale/api-contract';
import { cannedFetch } from '../testing/cannedFetch';

const SPEC: AlertRuleSpec = {
  name: 'x',
  description: '',
  enabled: true,
  metric: 'e2e_success',
  comparison: 'lt',
  threshold: 0.8,
  windowSeconds: 600,
  evaluationIntervalSeconds: 60,
  minSampleSize: 1,
  forSeconds: 0,
  repeatIntervalSeconds: 0,
  filters: {},
  labels: {},
  destinationIds: [],
};

describe('alerts API client', () => {
  it('builds URLs, leaving out empty filters', () => {
    expect(alertsUrls.history({ limit: 26, offset: 0 })).toBe('/api/v1/alerts/history?limit=26&offset=0');
    expect(alertsUrls.history({ ruleId: 'rule_1', limit: 26, offset: 25 })).toBe(
      '/api/v1/alerts/history?ruleId=rule_1&limit=26&offset=25',
    );
    expect(alertsUrls.states()).toBe('/api/v1/alerts/state');
    expect(alertsUrls.notifications({ limit: 10, offset: 0, state: 'failed' })).toBe(
      '/api/v1/alerts/notifications?state=failed&limit=10&offset=0',
    );
    expect(alertsUrls.redeliver('msg_a/b')).toBe('/api/v1/alerts/notifications/msg_a%2Fb/redeliver');
  });

  it('parses rules and states, optional values absent', async () => {
    const rules = await fetchAlertRules({ fetch: cannedFetch(200, { rules: [ruleJson()] }), readKey: undefined });
    expect(rules[0]).toMatchObject({ id: 'rule_1', threshold: 0.8, filters: { agent: 'checkout' } });
    const states = await fetchAlertStates(undefined, {
      fetch: cannedFetch(200, {
        states: [
          {
            projectId: 'p',
            ruleId: 'rule_1',
            groupKey: '',
            state: 'ok',
            episode: 'e',
            sinceMs: 1,
            lastEvalAtMs: 2,
            lastSample: 0,
            notifySeq: 0,
            notifyKind: '',
            labels: {},
          },
        ],
      }),
      readKey: undefined,
    });
    expect(states[0]?.lastValue).toBeUndefined();
  });

  it('POSTs a rule as JSON and DELETEs without a body', async () => {
    const created = cannedFetch(201, { rule: ruleJson({ name: 'x' }) });
    expect((await createAlertRule(SPEC, { fetch: created, readKey: undefined })).name).toBe('x');
    expect(created.requests).toEqual([
      { url: '/api/v1/alerts/rules', method: 'POST', contentType: 'application/json', authorization: null, body: SPEC },
    ]);
    const deleted = cannedFetch(200, { deleted: 'rule_1' });
    await deleteAlertRule('rule_1', { fetch: deleted, readKey: 'tt_read_k' });
    expect(deleted.requests).toEqual([
      {
        url: '/api/v1/alerts/rules/rule_1',
        method: 'DELETE',
        contentType: null,
        authorization: 'Bearer tt_read_k',
        body: undefined,
      },
    ]);
  });

  it("turns the server's 400 into an ApiError naming the field", async () => {
    const refused = cannedFetch(400, {
      error: { code: 'BAD_REQUEST', message: 'invalid request body threshold: Invalid input' },
    });
    const error = await createAlertRule(SPEC, { fetch: refused, readKey: undefined }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 400,
      code: 'BAD_REQUEST',
      message: 'invalid request body threshold: Invalid input',
    });
  });
});
