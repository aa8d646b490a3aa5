import { API_KEY_KINDS, MAX_RUN_ID_LENGTH, MAX_SPANS_PER_SECOND_LIMIT, PROJECT_ID_PATTERN } from '@telltale/semconv';
import { z } from 'zod';

/** `/admin/…`: projects and API keys (`null`: no quota / not revoked). */

const ProjectId = z
  .string()
  .regex(PROJECT_ID_PATTERN, 'use 1–64 lowercase letters, digits and hyphens, starting with a letter or digit');
const Quota = z.number().int().min(1).max(MAX_SPANS_PER_SECOND_LIMIT);
const DisplayName = z.string().min(1).max(256);

export const ProjectParams = z.object({ projectId: ProjectId.describe('project id') }).strict();
export const ProjectRunParams = z
  .object({
    projectId: ProjectId.describe('project id'),
    runId: z.string().min(1).max(MAX_RUN_ID_LENGTH).describe('run id'),
  })
  .strict();
/** What deleting a run removed: its span rows, and how many of its spans had content kept. */
export const deletedRunResponseSchema = z.object({
  deleted: z.object({ runId: z.string(), spans: z.number(), contentSpans: z.number() }),
});
export const KeyParams = z
  .object({
    keyId: z
      .string()
      .regex(/^[0-9A-Za-z]{8,64}$/, 'a key id is 8–64 letters and digits')
      .describe('key id (the part after tt_<kind>_)'),
  })
  .strict();

/** What creating a project takes (the dashboard's form checks the same). */
export const projectInputSchema = z
  .object({
    id: ProjectId,
    name: DisplayName.optional().describe('display name (default: the id)'),
    maxSpansPerSecond: Quota.optional().describe('ingest quota in spans per second (default: none)'),
    contentStored: z
      .boolean()
      .optional()
      .describe(
        'keep span content (prompts, messages, tool arguments and results); false drops it at ingest (default: true)',
      ),
    contentReadable: z.boolean().optional().describe('let read keys read span content (default: false)'),
  })
  .strict();
export type ProjectInput = z.input<typeof projectInputSchema>;

export const projectChangeSchema = z
  .object({
    name: DisplayName.optional(),
    maxSpansPerSecond: Quota.nullable().optional().describe('a new ingest quota; null removes it'),
    contentStored: z.boolean().optional().describe('keep span content; false drops it at ingest'),
    contentReadable: z.boolean().optional().describe('let read keys read span content'),
  })
  .strict();
export type ProjectChange = z.input<typeof projectChangeSchema>;

export const apiKeyKindSchema = z.enum(API_KEY_KINDS);
export type ApiKeyKind = z.infer<typeof apiKeyKindSchema>;

/** What creating a key takes. */
export const keyInputSchema = z
  .object({
    kind: apiKeyKindSchema.describe('ingest: sends OTLP; read: calls the API'),
    name: z.string().max(256, 'at most 256 characters').optional().describe('a label, e.g. ci'),
  })
  .strict();
export type KeyInput = z.input<typeof keyInputSchema>;

export const projectSchema = z.object({
  id: z.string(),
  name: z.string(),
  maxSpansPerSecond: z.number().nullable(),
  createdAtMs: z.number(),
  /** false: the content of this project's spans is dropped at ingest. */
  contentStored: z.boolean(),
  /** true: read keys may read span content. */
  contentReadable: z.boolean(),
  /** Spans whose content was dropped at ingest (content off) since this server started. */
  contentDroppedSpans: z.number(),
});
export type Project = z.infer<typeof projectSchema>;

/** A key as the server shows it: never its secret. `prefix` is how the key begins, to recognise it. */
export const apiKeySchema = z.object({
  keyId: z.string(),
  projectId: z.string(),
  kind: apiKeyKindSchema,
  name: z.string(),
  prefix: z.string(),
  createdAtMs: z.number(),
  revokedAtMs: z.number().nullable(),
});
export type ApiKey = z.infer<typeof apiKeySchema>;

/**
 * The projects, and how the server authenticates: `none` (open mode: one
 * project, `default`, for everything sent; projects and keys made meanwhile
 * take effect under `keys`) or `keys` (every request needs a project's key).
 */
export const projectsResponseSchema = z.object({
  projects: z.array(projectSchema),
  auth: z.enum(['none', 'keys']),
});
export type ProjectList = z.infer<typeof projectsResponseSchema>;
export const projectResponseSchema = z.object({ project: projectSchema });
export const keysResponseSchema = z.object({ keys: z.array(apiKeySchema) });
export const keyResponseSchema = z.object({ key: apiKeySchema });
/** The create answer: `secret` is the whole key, shown this once. */
export const createdKeySchema = z.object({ key: apiKeySchema, secret: z.string().min(1) });
export type CreatedKey = z.infer<typeof createdKeySchema>;
