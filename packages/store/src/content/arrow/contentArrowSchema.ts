import { createHash } from 'node:crypto';
import {
  arrowField as f,
  countNodesAndBuffers,
  schemaMessage,
  type ArrowField,
} from '../../spans/arrow/arrowSchema.js';

/**
 * The Arrow schema of a span_content record batch: the insert columns of the
 * `span_content` table (migrations/0010_span_content.ts) in table order, not
 * `ingested_at`, whose DEFAULT is taken at insert time.
 * encodeContentRecordBatch writes the columns in this order.
 */
export const CONTENT_ARROW_FIELDS: readonly ArrowField[] = [
  f.utf8('project_id'),
  f.utf8('trace_id'),
  f.utf8('span_id'),
  f.timestampNsUtc('start_time'),
  f.utf8('input'),
  f.utf8('output'),
  f.bool('truncated'),
  f.uint64('original_bytes'),
  f.utf8('capture'),
  f.uint32('redactions'),
];

/** The column list for `INSERT INTO span_content (…)`. */
export const CONTENT_ARROW_COLUMNS: readonly string[] = CONTENT_ARROW_FIELDS.map((c) => c.name);

/** The encapsulated Schema message every span_content ArrowStream starts with. */
export const CONTENT_ARROW_SCHEMA_MESSAGE: Uint8Array = schemaMessage(CONTENT_ARROW_FIELDS);

/**
 * Bumped by hand whenever the schema changes, so a spool written by an older
 * build is recognised. A test pins the fingerprint below to this version.
 */
export const CONTENT_ARROW_SCHEMA_VERSION = 1;

/** sha256 (hex, first 16 chars) of the schema message: changes with any change to the schema. */
export const CONTENT_ARROW_SCHEMA_FINGERPRINT: string = createHash('sha256')
  .update(CONTENT_ARROW_SCHEMA_MESSAGE)
  .digest('hex')
  .slice(0, 16);

/** Field nodes and buffers of every span_content record batch. */
export const CONTENT_ARROW_LAYOUT = countNodesAndBuffers(CONTENT_ARROW_FIELDS);
