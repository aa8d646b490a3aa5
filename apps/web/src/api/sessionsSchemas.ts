import { z } from 'zod';
import { parseUnixNanos, usd } from '../units';

/** `GET /api/v1/sessions`, parsed at the boundary (nanosecond strings → `UnixNanos`, dollars → `Usd`). */

const count = z.number().int().nonnegative();
const unixNanosSchema = z.string().regex(/^\d+$/, 'expected a decimal nanosecond string').transform(parseUnixNanos);

export const sessionSummarySchema = z.object({
  sessionId: z.string(),
  runs: count,
  successRuns: count,
  failureRuns: count,
  incompleteRuns: count,
  /** The first run's start and the last run's end. */
  firstStartUnixNano: unixNanosSchema,
  lastEndUnixNano: unixNanosSchema,
  costUsd: z.number().transform(usd),
  inputTokens: count,
  outputTokens: count,
  services: z.array(z.string()),
  agents: z.array(z.string()),
});
export type SessionSummary = z.infer<typeof sessionSummarySchema>;

export const sessionsPageSchema = z.object({
  sessions: z.array(sessionSummarySchema),
  total: count,
  limit: count,
  offset: count,
});
export type SessionsPage = z.infer<typeof sessionsPageSchema>;
