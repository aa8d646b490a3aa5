import { OpenInferenceAttr, OtelAttr, TraceloopAttr, VercelAiAttr } from '@telltale/semconv';
import type { Migration } from './Migration.js';

/** `attributes['name']` as SQL, for a name that is one of our constants (no quotes or backslashes in them). */
function attr(name: string): string {
  // invariant: names are constants (a plain Error, never a user's error)
  if (!/^[A-Za-z0-9_.]+$/.test(name)) throw new Error(`unexpected attribute name ${name}`);
  return `attributes['${name}']`;
}

/**
 * Session / conversation grouping across runs. Each span's `session_id` is
 * the first non-empty of `gen_ai.conversation.id`, OpenInference
 * `session.id`, the Vercel AI SDK's `ai.telemetry.metadata.sessionId` and
 * OpenLLMetry's `traceloop.association.properties.session_id` (the order of
 * semconv SESSION_ID_SOURCES; this migration spells them out, so a new
 * source needs a new migration). MATERIALIZED: computed by ClickHouse at
 * insert (and on read for older parts), so the collector's hot path and the
 * spool's Arrow schema do not change. `reasoning_tokens` likewise (part of
 * the output tokens in every convention, so for reporting only).
 *
 * A run's session is that of its earliest span that names one; the run
 * facts keep it, so listing a session's runs reads one row per run.
 */
export const m0007Sessions: Migration = {
  version: 7,
  name: 'sessions',
  statements: [
    `ALTER TABLE spans ADD COLUMN IF NOT EXISTS session_id String
    MATERIALIZED coalesce(nullIf(${attr(OtelAttr.genAiConversationId)}, ''), nullIf(${attr(OpenInferenceAttr.sessionId)}, ''),
        nullIf(${attr(VercelAiAttr.metadataSessionId)}, ''), nullIf(${attr(TraceloopAttr.sessionId)}, ''), '')
    CODEC(ZSTD(1))`,
    `ALTER TABLE spans ADD COLUMN IF NOT EXISTS reasoning_tokens UInt64
    MATERIALIZED toUInt64OrZero(coalesce(nullIf(${attr(OtelAttr.genAiReasoningOutputTokens)}, ''), nullIf(${attr(OpenInferenceAttr.reasoningTokens)}, ''),
        nullIf(${attr(VercelAiAttr.reasoningTokens)}, ''), nullIf(${attr(VercelAiAttr.outputReasoningTokens)}, ''),
        nullIf(${attr(TraceloopAttr.reasoningTokens)}, ''), '0'))`,
    `ALTER TABLE spans ADD INDEX IF NOT EXISTS idx_session_id session_id TYPE bloom_filter(0.001) GRANULARITY 1`,
    `ALTER TABLE run_facts ADD COLUMN IF NOT EXISTS session_id String DEFAULT '' CODEC(ZSTD(1))`,
  ],
};
