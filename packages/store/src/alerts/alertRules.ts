import type { ClickHouseClient } from '@clickhouse/client';
import { msToDateTime64, nextVersionStamp } from '../versionStamp.js';
import { insertRows, num, selectRows, type Num } from './alertRows.js';

/**
 * An alert rule as stored. The definition (metric, threshold, window,
 * filters…) is JSON owned and validated by @telltale/alerts; the store keeps
 * it opaque so the rule language can grow without a migration.
 */
export interface StoredAlertRule {
  projectId: string;
  ruleId: string;
  name: string;
  /** JSON text of the rule definition. */
  definition: string;
  enabled: boolean;
  createdAtMs: number;
  updatedAtMs: number;
}

interface RuleRow {
  project_id: string;
  rule_id: string;
  name: string;
  definition: string;
  enabled: Num;
  created_ms: Num;
  updated_ms: Num;
}

const SELECT = `SELECT project_id, rule_id, name, definition, enabled,
       toUnixTimestamp64Milli(created_at) AS created_ms, toUnixTimestamp64Milli(updated_at) AS updated_ms
FROM alert_rules FINAL`;

function fromRow(r: RuleRow): StoredAlertRule {
  return {
    projectId: r.project_id,
    ruleId: r.rule_id,
    name: r.name,
    definition: r.definition,
    enabled: num(r.enabled) === 1,
    createdAtMs: num(r.created_ms),
    updatedAtMs: num(r.updated_ms),
  };
}

/** Writes (creates or replaces) a rule. */
export async function putAlertRule(client: ClickHouseClient, rule: StoredAlertRule): Promise<void> {
  await writeRuleVersion(client, rule, false);
}

/**
 * Deletes a rule: a newer row marked deleted, which keeps the rule's last
 * definition, so an evaluator that was not running when it was deleted can
 * still resolve its open alerts with it (listDeletedAlertRules).
 */
export async function deleteAlertRule(client: ClickHouseClient, rule: StoredAlertRule): Promise<void> {
  await writeRuleVersion(client, { ...rule, updatedAtMs: Date.now() }, true);
}

/** A new version of a rule's row: the newest one counts (ReplacingMergeTree by version, deleted or not). */
async function writeRuleVersion(client: ClickHouseClient, rule: StoredAlertRule, deleted: boolean): Promise<void> {
  await insertRows(client, 'alert_rules', [
    {
      project_id: rule.projectId,
      rule_id: rule.ruleId,
      name: rule.name,
      definition: rule.definition,
      enabled: rule.enabled ? 1 : 0,
      created_at: msToDateTime64(rule.createdAtMs),
      updated_at: msToDateTime64(rule.updatedAtMs),
      version: nextVersionStamp(),
      is_deleted: deleted ? 1 : 0,
    },
  ]);
}

/**
 * Of these rules, the ones deleted, as they were when deleted (their newest
 * row is the deletion's). A rule deleted without its definition (by an
 * older version) is not listed.
 */
export async function listDeletedAlertRules(
  client: ClickHouseClient,
  rules: ReadonlyArray<{ projectId: string; ruleId: string }>,
): Promise<StoredAlertRule[]> {
  if (rules.length === 0) return [];
  const rows = await selectRows<RuleRow>(
    client,
    `SELECT project_id, rule_id, last.1 AS name, last.2 AS definition, last.3 AS enabled,
       toUnixTimestamp64Milli(last.4) AS created_ms, toUnixTimestamp64Milli(last.5) AS updated_ms
FROM
(
    SELECT project_id, rule_id, argMax((name, definition, enabled, created_at, updated_at, is_deleted), version) AS last
    FROM alert_rules
    WHERE rule_id IN {ruleIds:Array(String)}
    GROUP BY project_id, rule_id
)
WHERE last.6 = 1 AND last.2 != ''
ORDER BY project_id, rule_id`,
    { ruleIds: [...new Set(rules.map((r) => r.ruleId))] },
  );
  const asked = new Set(rules.map((r) => `${r.projectId}\n${r.ruleId}`));
  return rows.filter((r) => asked.has(`${r.project_id}\n${r.rule_id}`)).map(fromRow);
}

/** The project's rules by id; without a project, every project's (the evaluator's view). */
export async function listAlertRules(client: ClickHouseClient, projectId?: string): Promise<StoredAlertRule[]> {
  const rows = await selectRows<RuleRow>(
    client,
    `${SELECT} WHERE is_deleted = 0 ${projectId === undefined ? '' : 'AND project_id = {projectId:String}'} ORDER BY project_id, rule_id`,
    projectId === undefined ? {} : { projectId },
  );
  return rows.map(fromRow);
}

export async function getAlertRule(
  client: ClickHouseClient,
  projectId: string,
  ruleId: string,
): Promise<StoredAlertRule | undefined> {
  const rows = await selectRows<RuleRow>(
    client,
    `${SELECT} WHERE is_deleted = 0 AND project_id = {projectId:String} AND rule_id = {ruleId:String}`,
    { projectId, ruleId },
  );
  const row = rows[0];
  return row === undefined ? undefined : fromRow(row);
}
