import { Router, type Request } from 'express';
import type { AlertService } from '@telltale/alerts';
import { API_ROUTES } from '@telltale/api-contract';
import type { ApiRegistry } from './ApiRegistry.js';

const nsToMs = (ns: bigint | undefined): number | undefined => (ns === undefined ? undefined : Number(ns / 1_000_000n));

/**
 * `/alerts/…`: rules, their state and history, destinations, and the
 * delivery log, per project (the caller's key's project, like every route).
 */
export function alertsRouter(registry: ApiRegistry, alerts: AlertService, projectOf: (req: Request) => string): Router {
  const router = Router();
  const tag = 'alerts';
  registry.route(
    router,
    {
      ...API_ROUTES['get /alerts/rules'],
      tag,
      summary: 'Alert rules of the project',
      returns: '{ rules: AlertRule[] }',
    },
    async ({ req }) => ({
      rules: await alerts.listRules(projectOf(req)),
    }),
  );
  registry.route(
    router,
    {
      ...API_ROUTES['post /alerts/rules'],
      status: 201,
      tag,
      summary: 'Creates an alert rule',
      returns: '{ rule: AlertRule } (201)',
    },
    async ({ req, res, body }) => {
      res.status(201);
      return { rule: await alerts.createRule(projectOf(req), body) };
    },
  );
  registry.route(
    router,
    {
      ...API_ROUTES['get /alerts/rules/:ruleId'],
      tag,
      summary: 'One rule with its current state per group',
      returns: '{ rule, states }',
    },
    async ({ req, params }) => {
      const projectId = projectOf(req);
      return {
        rule: await alerts.getRule(projectId, params.ruleId),
        states: await alerts.states(projectId, params.ruleId),
      };
    },
  );
  registry.route(
    router,
    {
      ...API_ROUTES['put /alerts/rules/:ruleId'],
      tag,
      summary: "Replaces a rule's definition (its state carries on)",
      returns: '{ rule }',
    },
    async ({ req, params, body }) => ({ rule: await alerts.updateRule(projectOf(req), params.ruleId, body) }),
  );
  registry.route(
    router,
    { ...API_ROUTES['delete /alerts/rules/:ruleId'], tag, summary: 'Deletes a rule', returns: '{ deleted: ruleId }' },
    async ({ req, params }) => {
      await alerts.deleteRule(projectOf(req), params.ruleId);
      return { deleted: params.ruleId };
    },
  );
  registry.route(
    router,
    {
      ...API_ROUTES['get /alerts/state'],
      tag,
      summary: 'Current state of every rule and group (ok | pending | firing | resolved)',
      returns: '{ states }',
    },
    async ({ req, query }) => ({ states: await alerts.states(projectOf(req), query.ruleId) }),
  );
  registry.route(
    router,
    {
      ...API_ROUTES['get /alerts/history'],
      tag,
      summary: 'State changes, newest first',
      returns: '{ events, limit, offset }',
    },
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

  registry.route(
    router,
    {
      ...API_ROUTES['get /alerts/destinations'],
      tag,
      summary: 'Webhook destinations (secrets never shown)',
      returns: '{ destinations }',
    },
    async ({ req }) => ({
      destinations: await alerts.listDestinations(projectOf(req)),
    }),
  );
  registry.route(
    router,
    {
      ...API_ROUTES['post /alerts/destinations'],
      status: 201,
      tag,
      summary: 'Creates a destination; answers its signing secret, once',
      returns: '{ destination, secret } (201)',
    },
    async ({ req, res, body }) => {
      const created = await alerts.createDestination(projectOf(req), body);
      res.status(201);
      return created;
    },
  );
  registry.route(
    router,
    {
      ...API_ROUTES['get /alerts/destinations/:destinationId'],
      tag,
      summary: 'One destination',
      returns: '{ destination }',
    },
    async ({ req, params }) => ({ destination: await alerts.getDestination(projectOf(req), params.destinationId) }),
  );
  registry.route(
    router,
    {
      ...API_ROUTES['put /alerts/destinations/:destinationId'],
      tag,
      summary: 'Changes name, URL, format, or re-enables',
      returns: '{ destination }',
    },
    async ({ req, params, body }) => ({
      destination: await alerts.updateDestination(projectOf(req), params.destinationId, body),
    }),
  );
  registry.route(
    router,
    {
      ...API_ROUTES['delete /alerts/destinations/:destinationId'],
      tag,
      summary: 'Deletes a destination',
      returns: '{ deleted }',
    },
    async ({ req, params }) => {
      await alerts.deleteDestination(projectOf(req), params.destinationId);
      return { deleted: params.destinationId };
    },
  );
  registry.route(
    router,
    {
      ...API_ROUTES['post /alerts/destinations/:destinationId/test'],
      tag,
      summary: 'Sends a test notification now',
      returns: '{ notification, outcome, attempt }',
    },
    async ({ req, params }) => alerts.sendTest(projectOf(req), params.destinationId),
  );
  registry.route(
    router,
    {
      ...API_ROUTES['post /alerts/destinations/:destinationId/rotate-secret'],
      tag,
      summary: 'Adds a new signing secret; the `keep` previous ones sign too until the next rotation',
      returns: '{ destination, secret }',
    },
    async ({ req, params, body }) => alerts.rotateSecret(projectOf(req), params.destinationId, body.keep),
  );

  registry.route(
    router,
    {
      ...API_ROUTES['get /alerts/notifications'],
      tag,
      summary: 'The delivery log: notifications, newest first',
      returns: '{ notifications, limit, offset }',
    },
    async ({ req, query }) => {
      const { state, limit, offset, ...filters } = query;
      const notifications = await alerts.notifications(projectOf(req), {
        ...filters,
        ...(state === undefined ? {} : { deliveryState: state }),
        limit,
        offset,
      });
      return { notifications, limit, offset };
    },
  );
  registry.route(
    router,
    {
      ...API_ROUTES['get /alerts/notifications/:notificationId'],
      tag,
      summary: 'One notification with every delivery attempt',
      returns: '{ notification, attempts }',
    },
    async ({ req, params }) => {
      const projectId = projectOf(req);
      return {
        notification: await alerts.notification(projectId, params.notificationId),
        attempts: await alerts.attempts(projectId, params.notificationId),
      };
    },
  );
  registry.route(
    router,
    {
      ...API_ROUTES['post /alerts/notifications/:notificationId/redeliver'],
      tag,
      summary: 'Sends a notification again (same webhook-id and body)',
      returns: '{ notification }',
    },
    async ({ req, params }) => ({ notification: await alerts.redeliver(projectOf(req), params.notificationId) }),
  );
  return router;
}
