import { MAX_RUN_ID_LENGTH } from '@telltale/semconv';
import { z } from 'zod';

/** `/runs/:runId/…/content`: what a step was given and produced, read one span or one run at a time. */

export const SpanContentParams = z.object({
  runId: z.string().min(1).max(MAX_RUN_ID_LENGTH),
  spanId: z
    .string()
    .regex(/^[0-9a-fA-F]{16}$/, 'a span id is 16 hex digits')
    .describe('span id'),
});

export const contentMessageSchema = z.object({
  /** `system`, `user`, `assistant`, `tool`… as the instrumentation named it. */
  role: z.string(),
  content: z.string(),
});
export type ContentMessage = z.infer<typeof contentMessageSchema>;

/**
 * One side of a step. `messages` for model calls; `toolArguments` /
 * `toolResult` for tool calls (parsed JSON when the text is JSON, else the
 * text); `text` for anything else.
 */
export const contentSideSchema = z.object({
  messages: z.array(contentMessageSchema).optional(),
  toolArguments: z.unknown().optional(),
  toolResult: z.unknown().optional(),
  text: z.string().optional(),
});
export type ContentSide = z.infer<typeof contentSideSchema>;

export const spanContentSchema = z.object({
  traceId: z.string(),
  spanId: z.string(),
  input: contentSideSchema,
  output: contentSideSchema,
  /** True when the content was cut to the server's per-span limit. */
  truncated: z.boolean(),
  /** UTF-8 bytes of the content as received, before any cut. */
  originalBytes: z.number(),
  /** What the SDK captured: `full`, `metadata` (lengths only), or '' when the sender did not say. */
  capture: z.string(),
  /** Strings the SDK's redactors changed before export (0 when none, or not said). */
  redactedStrings: z.number(),
});
export type SpanContent = z.infer<typeof spanContentSchema>;

export const spanContentResponseSchema = z.object({ content: spanContentSchema });
export const runContentResponseSchema = z.object({
  spans: z.array(spanContentSchema),
  /** The most spans one answer holds; a run with more content answers its first spans. */
  limit: z.number(),
});

/** The spans of a run that have content kept (their ids, at most `limit`), so a client asks only for those. */
export const runContentSpansResponseSchema = z.object({
  spanIds: z.array(z.string()),
  /** The most ids one answer holds; a run with more spans with content answers its first ones. */
  limit: z.number(),
});
