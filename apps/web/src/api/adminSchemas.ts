import { z } from 'zod';

/** The server's `/admin` answers (`null`: no quota / not revoked). */
export const projectSchema = z.object({
  id: z.string(),
  name: z.string(),
  maxSpansPerSecond: z.number().nullable(),
  createdAtMs: z.number(),
});
export type Project = z.infer<typeof projectSchema>;

export const apiKeyKindSchema = z.enum(['ingest', 'read']);
export type ApiKeyKind = z.infer<typeof apiKeyKindSchema>;

/** A key as the server shows it: never its secret. */
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

export const projectsResponseSchema = z.object({ projects: z.array(projectSchema) });
export const projectResponseSchema = z.object({ project: projectSchema });
export const keysResponseSchema = z.object({ keys: z.array(apiKeySchema) });
export const keyResponseSchema = z.object({ key: apiKeySchema });
/** The create answer: `secret` is the whole key, shown this once. */
export const createdKeySchema = z.object({ key: apiKeySchema, secret: z.string().min(1) });
export type CreatedKey = z.infer<typeof createdKeySchema>;

/** What the create-key form sends. */
export const keyInputSchema = z.object({ kind: apiKeyKindSchema, name: z.string().max(256, 'at most 256 characters').optional() });
export type KeyInput = z.infer<typeof keyInputSchema>;

/** What the create-project form sends (the server checks the same). */
export const projectInputSchema = z.object({
  id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'use 1–64 lowercase letters, digits and hyphens, starting with a letter or digit'),
  name: z.string().min(1).max(256).optional(),
});
export type ProjectInput = z.infer<typeof projectInputSchema>;
