import type { ClickHouseClient } from '@clickhouse/client';
import { putAlertRule, deleteAlertRule, listAlertRules, getAlertRule } from './alertRules.js';
import { putAlertDestination, deleteAlertDestination, listAlertDestinations, getAlertDestination } from './alertDestinations.js';
import { putAlertStates, listAlertStates, appendAlertHistory, listAlertHistory } from './alertState.js';
import { putNotifications, existingNotificationIds, listDueNotifications, listNotifications, getNotification, appendDeliveryAttempts, listDeliveryAttempts } from './alertNotifications.js';

/** The arguments of a store function after its client. */
type Args<F> = F extends (client: ClickHouseClient, ...rest: infer R) => unknown ? R : never;

/** Alert rules, destinations, notifications with their delivery attempts, and rule state with its history. */
export class AlertsRepository {
  constructor(private readonly client: ClickHouseClient) {}

  putAlertRule(...args: Args<typeof putAlertRule>): ReturnType<typeof putAlertRule> {
    return putAlertRule(this.client, ...args);
  }

  deleteAlertRule(...args: Args<typeof deleteAlertRule>): ReturnType<typeof deleteAlertRule> {
    return deleteAlertRule(this.client, ...args);
  }

  listAlertRules(...args: Args<typeof listAlertRules>): ReturnType<typeof listAlertRules> {
    return listAlertRules(this.client, ...args);
  }

  getAlertRule(...args: Args<typeof getAlertRule>): ReturnType<typeof getAlertRule> {
    return getAlertRule(this.client, ...args);
  }

  putAlertDestination(...args: Args<typeof putAlertDestination>): ReturnType<typeof putAlertDestination> {
    return putAlertDestination(this.client, ...args);
  }

  deleteAlertDestination(...args: Args<typeof deleteAlertDestination>): ReturnType<typeof deleteAlertDestination> {
    return deleteAlertDestination(this.client, ...args);
  }

  listAlertDestinations(...args: Args<typeof listAlertDestinations>): ReturnType<typeof listAlertDestinations> {
    return listAlertDestinations(this.client, ...args);
  }

  getAlertDestination(...args: Args<typeof getAlertDestination>): ReturnType<typeof getAlertDestination> {
    return getAlertDestination(this.client, ...args);
  }

  putAlertStates(...args: Args<typeof putAlertStates>): ReturnType<typeof putAlertStates> {
    return putAlertStates(this.client, ...args);
  }

  listAlertStates(...args: Args<typeof listAlertStates>): ReturnType<typeof listAlertStates> {
    return listAlertStates(this.client, ...args);
  }

  appendAlertHistory(...args: Args<typeof appendAlertHistory>): ReturnType<typeof appendAlertHistory> {
    return appendAlertHistory(this.client, ...args);
  }

  listAlertHistory(...args: Args<typeof listAlertHistory>): ReturnType<typeof listAlertHistory> {
    return listAlertHistory(this.client, ...args);
  }

  putNotifications(...args: Args<typeof putNotifications>): ReturnType<typeof putNotifications> {
    return putNotifications(this.client, ...args);
  }

  existingNotificationIds(...args: Args<typeof existingNotificationIds>): ReturnType<typeof existingNotificationIds> {
    return existingNotificationIds(this.client, ...args);
  }

  listDueNotifications(...args: Args<typeof listDueNotifications>): ReturnType<typeof listDueNotifications> {
    return listDueNotifications(this.client, ...args);
  }

  listNotifications(...args: Args<typeof listNotifications>): ReturnType<typeof listNotifications> {
    return listNotifications(this.client, ...args);
  }

  getNotification(...args: Args<typeof getNotification>): ReturnType<typeof getNotification> {
    return getNotification(this.client, ...args);
  }

  appendDeliveryAttempts(...args: Args<typeof appendDeliveryAttempts>): ReturnType<typeof appendDeliveryAttempts> {
    return appendDeliveryAttempts(this.client, ...args);
  }

  listDeliveryAttempts(...args: Args<typeof listDeliveryAttempts>): ReturnType<typeof listDeliveryAttempts> {
    return listDeliveryAttempts(this.client, ...args);
  }
}
