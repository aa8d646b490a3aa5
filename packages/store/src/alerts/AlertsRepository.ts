import type { ClickHouseClient } from '@clickhouse/client';
import type { QueryRunner } from '../QueryRunner.js';
import { putAlertRule, deleteAlertRule, listAlertRules, getAlertRule, listDeletedAlertRules } from './alertRules.js';
import {
  putAlertDestination,
  deleteAlertDestination,
  listAlertDestinations,
  getAlertDestination,
} from './alertDestinations.js';
import { putAlertStates, listAlertStates, appendAlertHistory, listAlertHistory } from './alertState.js';
import {
  putNotifications,
  existingNotificationIds,
  listDueNotifications,
  listNotifications,
  getNotification,
  appendDeliveryAttempts,
  listDeliveryAttempts,
} from './alertNotifications.js';

/** The arguments of a store function after its first. */
type Args<F> = F extends (client: ClickHouseClient, ...rest: infer R) => unknown ? R : never;

/** Alert rules, destinations, notifications with their delivery attempts, and rule state with its history. */
export class AlertsRepository {
  constructor(private readonly runner: QueryRunner) {}

  putAlertRule(...args: Args<typeof putAlertRule>): ReturnType<typeof putAlertRule> {
    return this.runner.run('alerts.putAlertRule', (client) => putAlertRule(client, ...args));
  }

  deleteAlertRule(...args: Args<typeof deleteAlertRule>): ReturnType<typeof deleteAlertRule> {
    return this.runner.run('alerts.deleteAlertRule', (client) => deleteAlertRule(client, ...args));
  }

  listAlertRules(...args: Args<typeof listAlertRules>): ReturnType<typeof listAlertRules> {
    return this.runner.run('alerts.listAlertRules', (client) => listAlertRules(client, ...args));
  }

  getAlertRule(...args: Args<typeof getAlertRule>): ReturnType<typeof getAlertRule> {
    return this.runner.run('alerts.getAlertRule', (client) => getAlertRule(client, ...args));
  }

  listDeletedAlertRules(...args: Args<typeof listDeletedAlertRules>): ReturnType<typeof listDeletedAlertRules> {
    return this.runner.run('alerts.listDeletedAlertRules', (client) => listDeletedAlertRules(client, ...args));
  }

  putAlertDestination(...args: Args<typeof putAlertDestination>): ReturnType<typeof putAlertDestination> {
    return this.runner.run('alerts.putAlertDestination', (client) => putAlertDestination(client, ...args));
  }

  deleteAlertDestination(...args: Args<typeof deleteAlertDestination>): ReturnType<typeof deleteAlertDestination> {
    return this.runner.run('alerts.deleteAlertDestination', (client) => deleteAlertDestination(client, ...args));
  }

  listAlertDestinations(...args: Args<typeof listAlertDestinations>): ReturnType<typeof listAlertDestinations> {
    return this.runner.run('alerts.listAlertDestinations', (client) => listAlertDestinations(client, ...args));
  }

  getAlertDestination(...args: Args<typeof getAlertDestination>): ReturnType<typeof getAlertDestination> {
    return this.runner.run('alerts.getAlertDestination', (client) => getAlertDestination(client, ...args));
  }

  putAlertStates(...args: Args<typeof putAlertStates>): ReturnType<typeof putAlertStates> {
    return this.runner.run('alerts.putAlertStates', (client) => putAlertStates(client, ...args));
  }

  listAlertStates(...args: Args<typeof listAlertStates>): ReturnType<typeof listAlertStates> {
    return this.runner.run('alerts.listAlertStates', (client) => listAlertStates(client, ...args));
  }

  appendAlertHistory(...args: Args<typeof appendAlertHistory>): ReturnType<typeof appendAlertHistory> {
    return this.runner.run('alerts.appendAlertHistory', (client) => appendAlertHistory(client, ...args));
  }

  listAlertHistory(...args: Args<typeof listAlertHistory>): ReturnType<typeof listAlertHistory> {
    return this.runner.run('alerts.listAlertHistory', (client) => listAlertHistory(client, ...args));
  }

  putNotifications(...args: Args<typeof putNotifications>): ReturnType<typeof putNotifications> {
    return this.runner.run('alerts.putNotifications', (client) => putNotifications(client, ...args));
  }

  existingNotificationIds(...args: Args<typeof existingNotificationIds>): ReturnType<typeof existingNotificationIds> {
    return this.runner.run('alerts.existingNotificationIds', (client) => existingNotificationIds(client, ...args));
  }

  listDueNotifications(...args: Args<typeof listDueNotifications>): ReturnType<typeof listDueNotifications> {
    return this.runner.run('alerts.listDueNotifications', (client) => listDueNotifications(client, ...args));
  }

  listNotifications(...args: Args<typeof listNotifications>): ReturnType<typeof listNotifications> {
    return this.runner.run('alerts.listNotifications', (client) => listNotifications(client, ...args));
  }

  getNotification(...args: Args<typeof getNotification>): ReturnType<typeof getNotification> {
    return this.runner.run('alerts.getNotification', (client) => getNotification(client, ...args));
  }

  appendDeliveryAttempts(...args: Args<typeof appendDeliveryAttempts>): ReturnType<typeof appendDeliveryAttempts> {
    return this.runner.run('alerts.appendDeliveryAttempts', (client) => appendDeliveryAttempts(client, ...args));
  }

  listDeliveryAttempts(...args: Args<typeof listDeliveryAttempts>): ReturnType<typeof listDeliveryAttempts> {
    return this.runner.run('alerts.listDeliveryAttempts', (client) => listDeliveryAttempts(client, ...args));
  }
}
