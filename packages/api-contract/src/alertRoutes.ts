import { alertRuleSpecSchema } from './alertRules.js';
import {
  AlertHistoryQuery,
  AlertStateQuery,
  deletedResponseSchema,
  destinationChangeSchema,
  destinationInputSchema,
  DestinationParams,
  destinationResponseSchema,
  destinationsResponseSchema,
  destinationWithSecretSchema,
  historyResponseSchema,
  notificationDetailSchema,
  NotificationParams,
  notificationResponseSchema,
  NotificationsQuery,
  notificationsResponseSchema,
  rotateSecretSchema,
  RuleParams,
  ruleResponseSchema,
  rulesResponseSchema,
  ruleWithStatesResponseSchema,
  statesResponseSchema,
  testResultSchema,
} from './alerts.js';
import { NoQuery } from './queryParams.js';
import type { RouteContract } from './RouteContract.js';

const D = '/alerts/destinations/:destinationId';
const N = '/alerts/notifications/:notificationId';

/** `/alerts/…`: rules, state, history, destinations and the delivery log. */
export const AlertRoutes = {
  'get /alerts/rules': { method: 'get', path: '/alerts/rules', query: NoQuery, response: rulesResponseSchema },
  'post /alerts/rules': { method: 'post', path: '/alerts/rules', query: NoQuery, body: alertRuleSpecSchema, response: ruleResponseSchema },
  'get /alerts/rules/:ruleId': { method: 'get', path: '/alerts/rules/:ruleId', query: NoQuery, params: RuleParams, response: ruleWithStatesResponseSchema },
  'put /alerts/rules/:ruleId': { method: 'put', path: '/alerts/rules/:ruleId', query: NoQuery, params: RuleParams, body: alertRuleSpecSchema, response: ruleResponseSchema },
  'delete /alerts/rules/:ruleId': { method: 'delete', path: '/alerts/rules/:ruleId', query: NoQuery, params: RuleParams, response: deletedResponseSchema },
  'get /alerts/state': { method: 'get', path: '/alerts/state', query: AlertStateQuery, response: statesResponseSchema },
  'get /alerts/history': { method: 'get', path: '/alerts/history', query: AlertHistoryQuery, response: historyResponseSchema },
  'get /alerts/destinations': { method: 'get', path: '/alerts/destinations', query: NoQuery, response: destinationsResponseSchema },
  'post /alerts/destinations': { method: 'post', path: '/alerts/destinations', query: NoQuery, body: destinationInputSchema, response: destinationWithSecretSchema },
  'get /alerts/destinations/:destinationId': { method: 'get', path: D, query: NoQuery, params: DestinationParams, response: destinationResponseSchema },
  'put /alerts/destinations/:destinationId': { method: 'put', path: D, query: NoQuery, params: DestinationParams, body: destinationChangeSchema, response: destinationResponseSchema },
  'delete /alerts/destinations/:destinationId': { method: 'delete', path: D, query: NoQuery, params: DestinationParams, response: deletedResponseSchema },
  'post /alerts/destinations/:destinationId/test': { method: 'post', path: `${D}/test`, query: NoQuery, params: DestinationParams, response: testResultSchema },
  'post /alerts/destinations/:destinationId/rotate-secret': {
    method: 'post',
    path: `${D}/rotate-secret`,
    query: NoQuery,
    params: DestinationParams,
    body: rotateSecretSchema,
    response: destinationWithSecretSchema,
  },
  'get /alerts/notifications': { method: 'get', path: '/alerts/notifications', query: NotificationsQuery, response: notificationsResponseSchema },
  'get /alerts/notifications/:notificationId': { method: 'get', path: N, query: NoQuery, params: NotificationParams, response: notificationDetailSchema },
  'post /alerts/notifications/:notificationId/redeliver': { method: 'post', path: `${N}/redeliver`, query: NoQuery, params: NotificationParams, response: notificationResponseSchema },
} as const satisfies Record<string, RouteContract>;
