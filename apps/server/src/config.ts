import { checkPolicy } from '@telltale/alerts';
import {
  DEFAULT_DRAIN_BATCH_SPANS,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_SPOOL_MAX_BYTES,
  DEFAULT_SPOOL_SEGMENT_BYTES,
} from '@telltale/collector';
import { z } from 'zod';
import { MIN_ADMIN_KEY_LENGTH } from './auth/AdminGate.js';
import { AUTH_MODES } from './auth/resolveAuthMode.js';
import { SERVER_ROLES } from './roles/serverRoles.js';

function isCidrList(cidrs: string[]): boolean {
  try {
    checkPolicy({ allowPrivate: cidrs });
    return true;
  } catch {
    return false;
  }
}

/**
 * Options of `telltale start` (resolveStartConfig fills them from flags and
 * TELLTALE_* variables); what a field accepts is also what its error says
 * (describeExpected), so constraints belong in the schema.
 */
export const StartConfigSchema = z
  .object({
    /** What this process does: everything (`all`), or one part of a scaled-out deployment (docs/roles.md). */
    role: z.enum(SERVER_ROLES).default('all'),
    port: z.coerce.number().int().min(0).max(65_535).default(4318),
    /** OTLP/gRPC port; `off` runs no gRPC receiver. */
    grpcPort: z.union([z.literal('off'), z.coerce.number().int().min(0).max(65_535)]).default(4317),
    host: z.string().min(1).default('127.0.0.1'),
    /** Unset: `none` on a loopback address; any other address requires `keys`. */
    auth: z.enum(AUTH_MODES).optional(),
    /** How often the server reloads API keys and quotas (a revoked key stops working within this). */
    authRefreshSeconds: z.coerce.number().min(0.1).max(3600).default(5),
    /** With `auth: keys`, the bearer key of `/api/v1/admin/…` (projects and API keys); unset: the admin API is off. */
    adminKey: z
      .string()
      .min(
        MIN_ADMIN_KEY_LENGTH,
        `an admin key must be at least ${MIN_ADMIN_KEY_LENGTH} characters (e.g. openssl rand -hex 32)`,
      )
      .optional(),
    dataDir: z.string().min(1).default('./.telltale'),
    clickhouseUrl: z.url({ protocol: /^https?$/ }).optional(),
    clickhouseUser: z.string().optional(),
    clickhousePassword: z.string().optional(),
    /** With a remote ClickHouse: the cluster (remote_servers) the schema is created on — Replicated tables behind Distributed ones. */
    clickhouseCluster: z
      .string()
      .refine((v) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(v), {
        message: 'a cluster name of letters, digits and _ (as in remote_servers)',
      })
      .optional(),
    retentionDays: z.coerce.number().int().min(1).max(3650).optional(),
    /** Days span content (prompts, messages, tool arguments and results) is kept; default 7 (the table's TTL). */
    contentRetentionDays: z.coerce.number().int().min(1).max(3650).optional(),
    /** UTF-8 bytes of content kept per span; more is cut and counted. */
    contentMaxBytes: z.coerce
      .number()
      .int()
      .min(1024)
      .max(64 * 1024 * 1024)
      .default(1024 * 1024),
    maxBodyBytes: z.coerce.number().int().min(1024).default(DEFAULT_MAX_BODY_BYTES),
    requestTimeoutMs: z.coerce.number().int().min(100).max(600_000).default(30_000),
    spoolDir: z.string().min(1).optional(),
    spoolMaxBytes: z.coerce
      .number()
      .int()
      .min(1024 * 1024)
      .default(DEFAULT_SPOOL_MAX_BYTES),
    /** A spool segment is sealed at this size (drained space comes back a segment at a time). */
    spoolSegmentBytes: z.coerce
      .number()
      .int()
      .min(4096)
      .max(1024 ** 3)
      .default(DEFAULT_SPOOL_SEGMENT_BYTES),
    ingestWorkers: z.coerce.number().int().min(0).max(64).optional(),
    /** Spans per insert of the spool's backlog into storage: larger batches cost the engine less per span and hold more memory while they are written. */
    drainBatchSpans: z.coerce.number().int().min(1000).max(1_000_000).default(DEFAULT_DRAIN_BATCH_SPANS),
    /** Steps of niceness the embedded engine's merge and parallel insert and query threads get above the rest of the server (Linux): under load the collector's threads win the cores; 0 leaves them at the process's. */
    engineNice: z.coerce.number().int().min(0).max(19).default(10),
    /** Every this many ms the memory Node's allocator freed goes back to the system, and every minute the embedded engine library's pages not in use (Linux with glibc); 0 never. */
    memoryTrimMs: z.coerce.number().int().min(0).max(3_600_000).default(250),
    /** A downstream trace fragment (spans without a run id, no trace root) waits this long for its run before it is a run of its own. */
    orphanQuietSeconds: z.coerce.number().min(0).max(3600).default(30),
    webDir: z.string().optional(),
    demo: z.boolean().default(false),
    /** Base URL of the dashboard as receivers should open it (links in notifications); default: the listening URL. */
    publicUrl: z.url({ protocol: /^https?$/ }).optional(),
    /** CIDR ranges webhook destinations may reach although they are not public (comma-separated), e.g. 127.0.0.0/8,10.0.0.0/8. */
    alertsAllowPrivate: z
      .string()
      .default('')
      .transform((v) =>
        v
          .split(',')
          .map((s) => s.trim())
          .filter((s) => s !== ''),
      )
      .refine(isCidrList, { message: 'comma-separated CIDR ranges such as 10.0.0.0/8,127.0.0.0/8' }),
    /** First retry delay of a failed webhook (doubles per attempt, with jitter). */
    alertsRetryBaseMs: z.coerce.number().int().min(10).max(3_600_000).default(10_000),
    /** A separate listener for `/metrics` (and the probes) on the same host, without auth. */
    metricsPort: z.coerce.number().int().min(0).max(65_535).optional(),
    /** With `--auth keys`, `/metrics` on the main port needs this as a Bearer token (unset: not served there). */
    metricsToken: z.string().min(16, 'the metrics token must be at least 16 characters').optional(),
    logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  })
  .strict();

export type StartConfig = z.infer<typeof StartConfigSchema>;
