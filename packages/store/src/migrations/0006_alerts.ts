import type { Migration } from './Migration.js';

/**
 * Alerts: rules, destinations, per-(rule, group) state, a transition history,
 * and the notification outbox with every delivery attempt.
 *
 * ClickHouse has no transactions, so every mutable table is a
 * ReplacingMergeTree keyed by its identity with a `version` (microseconds,
 * strictly increasing within a process, see versionStamp.ts) and read with
 * FINAL: a change is a newer row. The outbox is the delivery contract: a
 * notification row (with its stable webhook id) is written `pending` BEFORE
 * the first send, and a newer row marks it `delivered` after a 2xx, so a
 * restart resends only what was not recorded as delivered, with the same id.
 * History and attempts are append-only logs (plain MergeTree).
 */
export const m0006Alerts: Migration = {
  version: 6,
  name: 'alerts',
  statements: [
    `CREATE TABLE IF NOT EXISTS alert_rules
(
    project_id LowCardinality(String),
    rule_id String,
    name String,
    definition String,
    enabled UInt8,
    created_at DateTime64(3, 'UTC'),
    updated_at DateTime64(3, 'UTC'),
    version UInt64,
    is_deleted UInt8 DEFAULT 0
)
ENGINE = ReplacingMergeTree(version, is_deleted)
ORDER BY (project_id, rule_id)`,
    `CREATE TABLE IF NOT EXISTS alert_destinations
(
    project_id LowCardinality(String),
    destination_id String,
    name String,
    format LowCardinality(String),
    url String,
    secrets Array(String),
    disabled_at Nullable(DateTime64(3, 'UTC')),
    disabled_reason String,
    created_at DateTime64(3, 'UTC'),
    updated_at DateTime64(3, 'UTC'),
    version UInt64,
    is_deleted UInt8 DEFAULT 0
)
ENGINE = ReplacingMergeTree(version, is_deleted)
ORDER BY (project_id, destination_id)`,
    `CREATE TABLE IF NOT EXISTS alert_state
(
    project_id LowCardinality(String),
    rule_id String,
    group_key String,
    state LowCardinality(String),
    episode String,
    since DateTime64(3, 'UTC'),
    fired_at Nullable(DateTime64(3, 'UTC')),
    last_eval_at DateTime64(3, 'UTC'),
    last_value Nullable(Float64),
    last_sample UInt64,
    notify_seq UInt32,
    notify_kind LowCardinality(String),
    last_notified_at Nullable(DateTime64(3, 'UTC')),
    labels Map(String, String),
    version UInt64
)
ENGINE = ReplacingMergeTree(version)
ORDER BY (project_id, rule_id, group_key)`,
    `CREATE TABLE IF NOT EXISTS alert_history
(
    project_id LowCardinality(String),
    rule_id String,
    group_key String,
    event_id String,
    at DateTime64(3, 'UTC'),
    from_state LowCardinality(String),
    to_state LowCardinality(String),
    value Nullable(Float64),
    threshold Float64,
    sample UInt64,
    message String
)
ENGINE = ReplacingMergeTree
ORDER BY (project_id, at, event_id)`,
    `CREATE TABLE IF NOT EXISTS alert_notifications
(
    project_id LowCardinality(String),
    notification_id String,
    destination_id String,
    rule_id String,
    group_key String,
    kind LowCardinality(String),
    body String,
    delivery_state LowCardinality(String),
    attempts UInt32,
    next_attempt_at DateTime64(3, 'UTC'),
    created_at DateTime64(3, 'UTC'),
    delivered_at Nullable(DateTime64(3, 'UTC')),
    last_error String,
    version UInt64
)
ENGINE = ReplacingMergeTree(version)
ORDER BY (project_id, notification_id)`,
    `CREATE TABLE IF NOT EXISTS alert_delivery_attempts
(
    project_id LowCardinality(String),
    notification_id String,
    attempt UInt32,
    at DateTime64(3, 'UTC'),
    url String,
    status_code Nullable(UInt16),
    outcome LowCardinality(String),
    error String,
    duration_ms UInt32
)
ENGINE = ReplacingMergeTree
ORDER BY (project_id, notification_id, attempt, at)`,
  ],
};
