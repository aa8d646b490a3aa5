import { Router, type Request } from 'express';
import { AlertRuleSpecSchema, DESTINATION_FORMATS, type AlertService } from '@telltale/alerts';
import { z } from 'zod';
import type { ApiRegistry } from './ApiRegistry.js';
import { TimeParam } from './timeParam.js';

const NoQuery = z.object({}).strict();
const Id = (what: string) => z.string().regex(/^[A-Za-z0-9_-]{1,64}$/).describe(what);
const RuleParams = z.object({ ruleId: Id('rule id (rule_…)') }).strict();
const DestinationParams = z.object({ destinationId: Id('destination id (dst_…)') }).strict();
const NotificationParams = z.object({ notificationId: Id('notification id = webhook-id (msg_…)') }).strict();
const Page = {
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
};
const nsToMs = (ns: bigint | undefined): number | undefined => (ns === undefined ? undefined : Number(ns / 1_000_000n));
const HistoryQuery = z
  .object({ ruleId: Id('only this rule').optional(), from: TimeParam.optional().describe('unix ms or ISO-8601'), to: TimeParam.optional().describe('unix ms or ISO-8601'), ...Page })
  .strict();
const StateQuery = z.object({ ruleId: Id('only this rule').optional() }).strict();
const NotificationsQuery = z
  .object({
    destinationId: Id('only this destination').optional(),
    ruleId: Id('only this rule').optional(),
    state: z.enum(['pending', 'delivered', 'failed']).optional().describe('delivery state'),
    ...Page,
  })
  .strict();
const DestinationUrl = z.url({ protocol: /^https?$/ }).max(2048).describe('http(s) URL; checked against the SSRF guard when saved and at every send');
const DestinationBody = z
  .object({
    name: z.string().min(1).max(200),
    url: DestinationUrl,
    format: z.enum(DESTINATION_FORMATS).default('standard').describe('standard (Telltale JSON) | slack (incoming webhook) | alertmanager (webhook receiver v4)'),
    secret: z.string().max(200).optional().describe('a whsec_… signing secret to use (default: a new one, returned once)'),
  })
  .strict();
const DestinationChange = z
  .object({
    name: z.string().min(1).max(200).optional(),
    url: DestinationUrl.optional(),
    format: z.enum(DESTINATION_FORMATS).optional(),
    enabled: z.boolean().optional().describe('true re-enables a destination disabled by a 410'),
  })
  .strict();
const RotateBody = z.object({ keep: z.number().int().min(0).max(4).default(1).describe('previous secrets that keep signing (newest first)') }).strict();

/**
 * `/alerts/…`: rules, their state and history, destinations, and the
 * delivery log, per project (the caller's key's project, like every route).
 */
export function alertsRouter(registry: ApiRegistry, alerts: AlertService, projectOf: (req: Request) => string): Router {
  const router = Router();
  const tag = 'alerts';
  registry.route(router, { method: 'get', path: '/alerts/rules', tag, summary: 'Alert rules of the project', query: NoQuery, response: '{ rules: AlertRule[] }' }, async ({ req }) => ({
    rules: await alerts.listRules(projectOf(req)),
  }));
  registry.route(
    router,
    { method: 'post', path: '/alerts/rules', tag, summary: 'Creates an alert rule', query: NoQuery, body: AlertRuleSpecSchema, response: '{ rule: AlertRule } (201)' },
    async ({ req, res, body }) => {
      res.status(201);
      return { rule: await alerts.createRule(projectOf(req), body) };
    },
  );
  registry.route(
    router,
    { method: 'get', path: '/alerts/rules/:ruleId', tag, summary: 'One rule with its current state per group', query: NoQuery, params: RuleParams, response: '{ rule, states }' },
    async ({ req, params }) => {
      const projectId = projectOf(req);
      return { rule: await alerts.getRule(projectId, params.ruleId), states: await alerts.states(projectId, params.ruleId) };
    },
  );
  registry.route(
    router,
    { method: 'put', path: '/alerts/rules/:ruleId', tag, summary: "Replaces a rule's definition (its state carries on)", query: NoQuery, params: RuleParams, body: AlertRuleSpecSchema, response: '{ rule }' },
    async ({ req, params, body }) => ({ rule: await alerts.updateRule(projectOf(req), params.ruleId, body) }),
  );
  registry.route(
    router,
    { method: 'delete', path: '/alerts/rules/:ruleId', tag, summary: 'Deletes a rule', query: NoQuery, params: RuleParams, response: '{ deleted: ruleId }' },
    async ({ req, params }) => {
      await alerts.deleteRule(projectOf(req), params.ruleId);
      return { deleted: params.ruleId };
    },
  );
  registry.route(
    router,
    { method: 'get', path: '/alerts/state', tag, summary: 'Current state of every rule and group (ok | pending | firing | resolved)', query: StateQuery, response: '{ states }' },
    async ({ req, query }) => ({ states: await alerts.states(projectOf(req), query.ruleId) }),
  );
  registry.route(
    router,
    { method: 'get', path: '/alerts/history', tag, summary: 'State changes, newest first', query: HistoryQuery, response: '{ events, limit, offset }' },
    async ({ req, query }) => {
      const fromMs = nsToMs(query.from);
      const toMs = nsToMs(query.to);
      const events = await alerts.history(projectOf(req), {
        limit: query.limit,
        offset: query.offset,
        ...(query.ruleId === undefined ? {} : { ruleId: query.ruleId }),
        ...(fromMs === undefined ? {} : { fromMs }),
        ...(toMs === undefined ? {} : { toMs }),
      });
      return { events, limit: query.limit, offset: query.offset };
    },
  );

  registry.route(router, { method: 'get', path: '/alerts/destinations', tag, summary: 'Webhook destinations (secrets never shown)', query: NoQuery, response: '{ destinations }' }, async ({ req }) => ({
    destinations: await alerts.listDestinations(projectOf(req)),
  }));
  registry.route(
    router,
    { method: 'post', path: '/alerts/destinations', tag, summary: 'Creates a destination; answers its signing secret, once', query: NoQuery, body: DestinationBody, response: '{ destination, secret } (201)' },
    async ({ req, res, body }) => {
      const created = await alerts.createDestination(projectOf(req), body);
      res.status(201);
      return created;
    },
  );
  registry.route(
    router,
    { method: 'get', path: '/alerts/destinations/:destinationId', tag, summary: 'One destination', query: NoQuery, params: DestinationParams, response: '{ destination }' },
    async ({ req, params }) => ({ destination: await alerts.getDestination(projectOf(req), params.destinationId) }),
  );
  registry.route(
    router,
    { method: 'put', path: '/alerts/destinations/:destinationId', tag, summary: 'Changes name, URL, format, or re-enables', query: NoQuery, params: DestinationParams, body: DestinationChange, response: '{ destination }' },
    async ({ req, params, body }) => ({ destination: await alerts.updateDestination(projectOf(req), params.destinationId, body) }),
  );
  registry.route(
    router,
    { method: 'delete', path: '/alerts/destinations/:destinationId', tag, summary: 'Deletes a destination', query: NoQuery, params: DestinationParams, response: '{ deleted }' },
    async ({ req, params }) => {
      await alerts.deleteDestination(projectOf(req), params.destinationId);
      return { deleted: params.destinationId };
    },
  );
  registry.route(
    router,
    { method: 'post', path: '/alerts/destinations/:destinationId/test', tag, summary: 'Sends a test notification now', query: NoQuery, params: DestinationParams, response: '{ notification, outcome, attempt }' },
    async ({ req, params }) => alerts.sendTest(projectOf(req), params.destinationId),
  );
  registry.route(
    router,
    {
      method: 'post',
      path: '/alerts/destinations/:destinationId/rotate-secret',
      tag,
      summary: 'Adds a new signing secret; the `keep` previous ones sign too until the next rotation',
      query: NoQuery,
      params: DestinationParams,
      body: RotateBody,
      response: '{ destination, secret }',
    },
    async ({ req, params, body }) => alerts.rotateSecret(projectOf(req), params.destinationId, body.keep),
  );

  registry.route(
    router,
    { method: 'get', path: '/alerts/notifications', tag, summary: 'The delivery log: notifications, newest first', query: NotificationsQuery, response: '{ notifications, limit, offset }' },
    async ({ req, query }) => {
      const { state, limit, offset, ...filters } = query;
      const notifications = await alerts.notifications(projectOf(req), { ...filters, ...(state === undefined ? {} : { deliveryState: state }), limit, offset });
      return { notifications, limit, offset };
    },
  );
  registry.route(
    router,
    { method: 'get', path: '/alerts/notifications/:notificationId', tag, summary: 'One notification with every delivery attempt', query: NoQuery, params: NotificationParams, response: '{ notification, attempts }' },
    async ({ req, params }) => {
      const projectId = projectOf(req);
      return { notification: await alerts.notification(projectId, params.notificationId), attempts: await alerts.attempts(projectId, params.notificationId) };
    },
  );
  registry.route(
    router,
    { method: 'post', path: '/alerts/notifications/:notificationId/redeliver', tag, summary: 'Sends a notification again (same webhook-id and body)', query: NoQuery, params: NotificationParams, response: '{ notification }' },
    async ({ req, params }) => ({ notification: await alerts.redeliver(projectOf(req), params.notificationId) }),
  );
  return router;
}
