import { randomBytes } from 'node:crypto';
import type { StoreRows } from '@telltale/store';
import { AlertRuleSpecSchema, type AlertRule, type AlertRuleSpec } from './AlertRule.js';

/** `prefix_` + 20 hex digits, e.g. `rule_…`, `dst_…`, `ep_…`. */
export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(10).toString('hex')}`;
}

export function toStoredRule(rule: AlertRule): StoreRows.StoredAlertRule {
  const { id, projectId, createdAtMs, updatedAtMs, enabled, ...spec } = rule;
  return {
    projectId,
    ruleId: id,
    name: spec.name,
    definition: JSON.stringify({ ...spec, enabled }),
    enabled,
    createdAtMs,
    updatedAtMs,
  };
}

/** The rule of a stored row; undefined when its definition no longer parses (reported by the caller). */
export function fromStoredRule(stored: StoreRows.StoredAlertRule): AlertRule | undefined {
  let json: unknown;
  try {
    json = JSON.parse(stored.definition);
  } catch {
    return undefined;
  }
  const parsed = AlertRuleSpecSchema.safeParse(json);
  if (!parsed.success) return undefined;
  const spec: AlertRuleSpec = { ...parsed.data, enabled: stored.enabled };
  return {
    ...spec,
    id: stored.ruleId,
    projectId: stored.projectId,
    createdAtMs: stored.createdAtMs,
    updatedAtMs: stored.updatedAtMs,
  };
}
