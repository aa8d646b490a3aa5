import { createHash } from 'node:crypto';
import { arrowField as f, countNodesAndBuffers, schemaMessage, type ArrowField } from './arrowSchema.js';

/**
 * The Arrow schema of a spans record batch: exactly the insert columns of the
 * `spans` table (migrations/0001_spans.ts) in table order — not the
 * MATERIALIZED `duration_ns`, nor `ingested_at`, whose DEFAULT is taken at
 * insert time. encodeSpanRecordBatch writes the columns in this order.
 */
export const SPANS_ARROW_FIELDS: readonly ArrowField[] = [
  f.utf8('project_id'),
  f.utf8('trace_id'),
  f.utf8('span_id'),
  f.utf8('parent_span_id'),
  f.utf8('trace_state'),
  f.utf8('run_id'),
  f.bool('is_run_root'),
  f.utf8('service_name'),
  f.utf8('name'),
  f.uint8('span_kind'),
  f.utf8('step_kind'),
  f.utf8('step_name'),
  f.uint16('attempt'),
  f.utf8('tool_name'),
  f.utf8('tool_args_hash'),
  f.utf8('state_hash'),
  f.utf8('output_hash'),
  f.bool('side_effect'),
  f.utf8('model'),
  f.utf8('provider'),
  f.uint64('input_tokens'),
  f.uint64('output_tokens'),
  f.uint64('cached_input_tokens'),
  f.nullableFloat64('cost_usd'),
  f.timestampNsUtc('start_time'),
  f.timestampNsUtc('end_time'),
  f.uint8('status_code'),
  f.utf8('status_message'),
  f.utf8('error_type'),
  f.utf8('run_outcome'),
  f.utf8Map('attributes'),
  f.utf8Map('attribute_types'),
  f.utf8Map('resource_attributes'),
  f.utf8('scope_name'),
  f.utf8('scope_version'),
  f.listOfStruct('events', [f.timestampNsUtc('time'), f.utf8('name'), f.utf8('attributes')]),
  f.listOfStruct('links', [f.utf8('trace_id'), f.utf8('span_id'), f.utf8('trace_state'), f.utf8('attributes')]),
  f.uint32('dropped_attributes_count'),
  f.uint32('dropped_events_count'),
  f.uint32('dropped_links_count'),
];

/** The column list for `INSERT INTO spans (…)`. */
export const SPANS_ARROW_COLUMNS: readonly string[] = SPANS_ARROW_FIELDS.map((c) => c.name);

/** The encapsulated Schema message every spans ArrowStream starts with. */
export const SPANS_ARROW_SCHEMA_MESSAGE: Uint8Array = schemaMessage(SPANS_ARROW_FIELDS);

/**
 * Bumped by hand whenever the schema changes, so a spool written by an older
 * build is recognised. A test pins the fingerprint below to this version.
 */
export const SPANS_ARROW_SCHEMA_VERSION = 1;

/** sha256 (hex, first 16 chars) of the schema message: changes with any change to the schema. */
export const SPANS_ARROW_SCHEMA_FINGERPRINT: string = createHash('sha256')
  .update(SPANS_ARROW_SCHEMA_MESSAGE)
  .digest('hex')
  .slice(0, 16);

/** Field nodes and buffers of every spans record batch. */
export const SPANS_ARROW_LAYOUT = countNodesAndBuffers(SPANS_ARROW_FIELDS);
