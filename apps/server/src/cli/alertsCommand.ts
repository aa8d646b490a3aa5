import { Command, InvalidArgumentError, Option } from 'commander';
import {
  ALERT_METRICS,
  COMPARISONS,
  DESTINATION_FORMATS,
  PERCENTILES,
  type AlertRule,
  type DestinationView,
} from '@telltale/alerts';
import { AlertHistoryQuery, NotificationsQuery } from '@telltale/api-contract';
import { ApiClient } from './ApiClient.js';
import { CliError } from './CliError.js';
import { DEFAULT_ENDPOINT } from './commonOptions.js';
import { formatTime } from './formatTime.js';
import { parseDuration } from './parseDuration.js';
import { parseOptions } from './parseOptions.js';
import { renderTable } from './renderTable.js';

type Write = (text: string) => void;

interface ServerOptions {
  endpoint: string;
  apiKey?: string;
  json: boolean;
}

interface RuleOptions extends ServerOptions {
  name?: string;
  metric?: string;
  comparison?: string;
  threshold?: string;
  window?: string;
  interval?: string;
  for?: string;
  repeat?: string;
  minSamples?: string;
  percentile?: string;
  cause?: string;
  service?: string;
  agent?: string;
  step?: string;
  tool?: string;
  model?: string;
  label: string[];
  destination: string[];
  description?: string;
  disabled?: boolean;
}

/** Every alerts command talks to the running server (it owns the evaluator), like `report`. */
function withServer(command: Command): Command {
  return command
    .option('--endpoint <url>', 'the Telltale server', DEFAULT_ENDPOINT)
    .addOption(new Option('--api-key <key>', 'API key (Authorization: Bearer)').env('TELLTALE_API_KEY'))
    .option('--json', 'print the API response as JSON', false);
}

const client = (o: ServerOptions): ApiClient => new ApiClient(o.endpoint, o.apiKey);
const collect = (value: string, previous: string[]): string[] => [...previous, value];
/** A filter flag taken once: a second one would silently replace the first. */
const once =
  (flag: string) =>
  (value: string, previous: string | undefined): string => {
    if (previous !== undefined) throw new InvalidArgumentError(`${flag} filters by one value: give it once`);
    return value;
  };
const seconds = (text: string | undefined, what: string): number | undefined =>
  text === undefined ? undefined : Math.round(parseDuration(text, what) / 1000);
const repeatSeconds = (text: string | undefined): number | undefined =>
  text === undefined ? undefined : text.trim() === '0' ? 0 : seconds(text, '--repeat');

function number(text: string | undefined, what: string): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n)) throw new CliError(`invalid ${what} "${text}": expected a number`);
  return n;
}

function labels(pairs: readonly string[]): Record<string, string> | undefined {
  if (pairs.length === 0) return undefined;
  return Object.fromEntries(
    pairs.map((p) => {
      const i = p.indexOf('=');
      if (i < 1) throw new CliError(`invalid --label "${p}": use name=value`);
      return [p.slice(0, i), p.slice(i + 1)];
    }),
  );
}

/** The rule body from the flags given (undefined fields are left to the server's defaults, or to `base`). */
function ruleBody(o: RuleOptions, base: Partial<AlertRule> = {}): Record<string, unknown> {
  const filters = Object.fromEntries(
    Object.entries({ service: o.service, agent: o.agent, step: o.step, tool: o.tool, model: o.model }).filter(
      ([, v]) => v !== undefined,
    ),
  );
  const given: Record<string, unknown> = {
    name: o.name,
    description: o.description,
    enabled: o.disabled === true ? false : undefined,
    metric: o.metric,
    percentile: o.percentile,
    cause: o.cause,
    comparison: o.comparison,
    threshold: number(o.threshold, '--threshold'),
    windowSeconds: seconds(o.window, '--window'),
    evaluationIntervalSeconds: seconds(o.interval, '--interval'),
    forSeconds: o.for === undefined ? undefined : o.for.trim() === '0' ? 0 : seconds(o.for, '--for'),
    repeatIntervalSeconds: repeatSeconds(o.repeat),
    minSampleSize: number(o.minSamples, '--min-samples'),
    filters: Object.keys(filters).length === 0 ? undefined : { ...base.filters, ...filters },
    labels: labels(o.label),
    destinationIds: o.destination.length === 0 ? undefined : o.destination,
  };
  const { id: _id, projectId: _p, createdAtMs: _c, updatedAtMs: _u, ...kept } = base as AlertRule;
  return { ...kept, ...Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)) };
}

function ruleFlags(command: Command): Command {
  return command
    .option('--name <name>', 'what the alert is called')
    .option('--metric <metric>', ALERT_METRICS.join(' | '))
    .option('--comparison <op>', `${COMPARISONS.join(' | ')}: fires when value <op> threshold`)
    .option('--threshold <n>', 'the threshold (fractions 0–1, latency in ms, cost in USD)')
    .option('--window <duration>', 'window the metric is measured over, e.g. 1h (default 1h)')
    .option('--interval <duration>', 'how often the rule is evaluated, e.g. 1m (default 1m)')
    .option('--for <duration>', 'how long the condition must hold before firing (default 0)')
    .option('--repeat <duration>', 'repeat a firing notification this often; 0: never (default 4h)')
    .option('--min-samples <n>', 'fewer samples neither start nor resolve an alert (default 1)')
    .option('--percentile <p>', `latency / cost per run: ${PERCENTILES.join(' | ')} (default p95)`)
    .option('--cause <cause>', 'failure_cause_share: loop | partial_execution | tool_failure | …')
    .option('--service <name>', 'only this service')
    .option('--agent <name>', 'only this agent')
    .option('--step <name>', 'only this step (needed by step_success and step_latency)')
    .option('--tool <name>', 'only this tool')
    .option('--model <name>', 'only this model')
    .option('--label <name=value>', 'a label on notifications (repeatable)', collect, [])
    .option('--destination <id>', 'a destination id to notify (repeatable)', collect, [])
    .option('--description <text>', 'shown on notifications')
    .option('--disabled', 'create or keep it disabled');
}

function printRules(write: Write, rules: readonly AlertRule[]): void {
  if (rules.length === 0) {
    write(
      'no alert rules: create one with telltale alerts rules create --name … --metric … --comparison … --threshold …\n',
    );
    return;
  }
  const rows = rules.map((r) => [
    r.id,
    r.name,
    r.enabled ? 'on' : 'off',
    `${r.metric}${r.percentile === undefined ? '' : ` ${r.percentile}`} ${r.comparison} ${r.threshold}`,
    `${r.windowSeconds}s`,
    r.destinationIds.join(','),
  ]);
  write(
    `${renderTable([{ header: 'id' }, { header: 'name' }, { header: 'enabled' }, { header: 'condition' }, { header: 'window' }, { header: 'destinations' }], rows)}\n`,
  );
}

function printDestinations(write: Write, ds: readonly DestinationView[]): void {
  if (ds.length === 0) {
    write('no destinations: create one with telltale alerts destinations create --name … --url …\n');
    return;
  }
  const rows = ds.map((d) => [d.id, d.name, d.format, d.url, d.enabled ? 'yes' : `no (${d.disabledReason})`]);
  write(
    `${renderTable([{ header: 'id' }, { header: 'name' }, { header: 'format' }, { header: 'url' }, { header: 'enabled' }], rows)}\n`,
  );
}

/**
 * `telltale alerts rules|destinations|history|notifications …` against a
 * running server's `/api/v1/alerts` (the server owns the evaluator, and an
 * embedded data directory is held by it).
 */
export function alertsCommand(write: Write, writeHelp: Write): Command {
  const alerts = new Command('alerts').description(
    'alert rules, webhook destinations, alert history and the delivery log (talks to a running server)',
  );
  const out = (o: ServerOptions, value: unknown, human: () => void): void => {
    if (o.json) write(`${JSON.stringify(value, null, 2)}\n`);
    else human();
  };

  const rules = alerts.command('rules').description('alert rules');
  withServer(rules.command('list').description('list the rules')).action(async (o: ServerOptions) => {
    const res = await client(o).get<{ rules: AlertRule[] }>('/alerts/rules');
    out(o, res, () => printRules(write, res.rules));
  });
  withServer(rules.command('show <ruleId>').description('one rule and its state')).action(
    async (id: string, o: ServerOptions) => {
      const res = await client(o).get<{
        rule: AlertRule;
        states: Array<{ groupKey: string; state: string; lastValue?: number; sinceMs: number }>;
      }>(`/alerts/rules/${encodeURIComponent(id)}`);
      out(o, res, () => {
        printRules(write, [res.rule]);
        for (const s of res.states)
          write(
            `  ${s.groupKey === '' ? '(rule)' : s.groupKey}: ${s.state} since ${formatTime(s.sinceMs)}, last value ${s.lastValue ?? '–'}\n`,
          );
      });
    },
  );
  withServer(ruleFlags(rules.command('create').description('create a rule'))).action(async (o: RuleOptions) => {
    const res = await client(o).send<{ rule: AlertRule }>('POST', '/alerts/rules', ruleBody(o));
    out(o, res, () => write(`created rule ${res.rule.id} (${res.rule.name})\n`));
  });
  withServer(
    ruleFlags(rules.command('update <ruleId>').description('change a rule (flags given replace those fields)')),
  )
    .option('--enable', 'enable the rule')
    .action(async (id: string, o: RuleOptions & { enable?: boolean }) => {
      const api = client(o);
      const { rule } = await api.get<{ rule: AlertRule }>(`/alerts/rules/${encodeURIComponent(id)}`);
      const body = ruleBody(o, rule);
      if (o.enable === true) body.enabled = true;
      const res = await api.send<{ rule: AlertRule }>('PUT', `/alerts/rules/${encodeURIComponent(id)}`, body);
      out(o, res, () => write(`updated rule ${res.rule.id}\n`));
    });
  withServer(rules.command('delete <ruleId>').description('delete a rule')).action(
    async (id: string, o: ServerOptions) => {
      const res = await client(o).send<{ deleted: string }>('DELETE', `/alerts/rules/${encodeURIComponent(id)}`);
      out(o, res, () => write(`deleted rule ${res.deleted}\n`));
    },
  );

  const destinations = alerts.command('destinations').description('webhook destinations');
  withServer(destinations.command('list').description('list the destinations (never their secrets)')).action(
    async (o: ServerOptions) => {
      const res = await client(o).get<{ destinations: DestinationView[] }>('/alerts/destinations');
      out(o, res, () => printDestinations(write, res.destinations));
    },
  );
  withServer(destinations.command('create').description('create a destination and print its signing secret, once'))
    .requiredOption('--name <name>', 'what the destination is called (required)')
    .requiredOption('--url <url>', 'the receiver (http/https; private addresses only when the server allows them)')
    .addOption(new Option('--format <format>', 'payload format').choices(DESTINATION_FORMATS).default('standard'))
    .option('--secret <whsec>', 'use this whsec_… secret instead of a new one')
    .action(async (o: ServerOptions & { name: string; url: string; format: string; secret?: string }) => {
      const res = await client(o).send<{ destination: DestinationView; secret: string }>(
        'POST',
        '/alerts/destinations',
        {
          name: o.name,
          url: o.url,
          format: o.format,
          ...(o.secret === undefined ? {} : { secret: o.secret }),
        },
      );
      out(o, res, () => {
        write(`${res.secret}\n`);
        writeHelp(
          `Created destination ${res.destination.id}. The secret above signs every webhook (Standard Webhooks); it is not shown again.\n`,
        );
      });
    });
  withServer(destinations.command('test <destinationId>').description('send a test notification now')).action(
    async (id: string, o: ServerOptions) => {
      const res = await client(o).send<{
        outcome: { outcome: string; reason?: string };
        notification: { notificationId: string };
      }>('POST', `/alerts/destinations/${encodeURIComponent(id)}/test`);
      out(o, res, () =>
        write(
          `test notification ${res.notification.notificationId}: ${res.outcome.outcome}${res.outcome.reason === undefined ? '' : ` (${res.outcome.reason})`}\n`,
        ),
      );
      if (res.outcome.outcome !== 'delivered') process.exitCode = 1;
    },
  );
  withServer(
    destinations
      .command('rotate-secret <destinationId>')
      .description('add a new signing secret; the previous one keeps signing until the next rotation'),
  )
    .option('--keep <n>', 'previous secrets that keep signing', '1')
    .action(async (id: string, o: ServerOptions & { keep: string }) => {
      const res = await client(o).send<{ secret: string }>(
        'POST',
        `/alerts/destinations/${encodeURIComponent(id)}/rotate-secret`,
        { keep: number(o.keep, '--keep') },
      );
      out(o, res, () => write(`${res.secret}\n`));
    });
  withServer(
    destinations.command('enable <destinationId>').description('re-enable a destination (e.g. after a 410)'),
  ).action(async (id: string, o: ServerOptions) => {
    const res = await client(o).send<{ destination: DestinationView }>(
      'PUT',
      `/alerts/destinations/${encodeURIComponent(id)}`,
      { enabled: true },
    );
    out(o, res, () => write(`enabled ${res.destination.id}\n`));
  });
  withServer(destinations.command('delete <destinationId>').description('delete a destination')).action(
    async (id: string, o: ServerOptions) => {
      const res = await client(o).send<{ deleted: string }>('DELETE', `/alerts/destinations/${encodeURIComponent(id)}`);
      out(o, res, () => write(`deleted destination ${res.deleted}\n`));
    },
  );

  withServer(alerts.command('history').description('state changes, newest first'))
    .option('--rule <ruleId>', 'only this rule', once('--rule'))
    .option('--limit <n>', 'how many', '50')
    .action(async (o: ServerOptions & { rule?: string; limit: string }) => {
      const res = await client(o).get<{
        events: Array<{
          atMs: number;
          ruleId: string;
          groupKey: string;
          fromState: string;
          toState: string;
          value?: number;
        }>;
      }>(
        '/alerts/history',
        parseOptions(
          AlertHistoryQuery.pick({ ruleId: true, limit: true }),
          { ruleId: o.rule, limit: o.limit },
          { ruleId: '--rule' },
        ),
      );
      out(o, res, () => {
        const rows = res.events.map((e) => [
          formatTime(e.atMs),
          e.ruleId,
          e.groupKey,
          `${e.fromState} → ${e.toState}`,
          e.value === undefined ? '–' : String(e.value),
        ]);
        write(
          `${renderTable([{ header: 'at' }, { header: 'rule' }, { header: 'group' }, { header: 'change' }, { header: 'value' }], rows)}\n`,
        );
      });
    });

  const notifications = alerts.command('notifications').description('the delivery log');
  withServer(notifications.command('list').description('notifications, newest first'))
    .option('--rule <id>', 'only this rule', once('--rule'))
    .option('--destination <id>', 'only this destination', once('--destination'))
    .option('--state <state>', 'pending | delivered | failed', once('--state'))
    .option('--limit <n>', 'how many', '50')
    .action(async (o: ServerOptions & { rule?: string; destination?: string; state?: string; limit: string }) => {
      const res = await client(o).get<{
        notifications: Array<{
          notificationId: string;
          createdAtMs: number;
          kind: string;
          deliveryState: string;
          attempts: number;
          destinationId: string;
          lastError: string;
        }>;
      }>(
        '/alerts/notifications',
        parseOptions(
          NotificationsQuery,
          { ruleId: o.rule, destinationId: o.destination, state: o.state, limit: o.limit },
          { ruleId: '--rule', destinationId: '--destination' },
        ),
      );
      out(o, res, () => {
        const rows = res.notifications.map((n) => [
          n.notificationId,
          formatTime(n.createdAtMs),
          n.kind,
          n.destinationId,
          n.deliveryState,
          String(n.attempts),
          n.lastError,
        ]);
        write(
          `${renderTable([{ header: 'webhook-id' }, { header: 'created' }, { header: 'kind' }, { header: 'destination' }, { header: 'state' }, { header: 'attempts' }, { header: 'last error' }], rows)}\n`,
        );
      });
    });
  withServer(
    notifications.command('redeliver <notificationId>').description('send a notification again (same webhook-id)'),
  ).action(async (id: string, o: ServerOptions) => {
    const res = await client(o).send<{ notification: { notificationId: string } }>(
      'POST',
      `/alerts/notifications/${encodeURIComponent(id)}/redeliver`,
    );
    out(o, res, () => write(`queued ${res.notification.notificationId} for redelivery\n`));
  });
  return alerts;
}
