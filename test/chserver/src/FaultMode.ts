import { z } from 'zod';

/** The path of the test-control endpoint (never affected by the fault modes). */
export const CONTROL_PATH = '/__control';

/**
 * How the server misbehaves, set by tests through `POST /__control`:
 * - `ok`: serves normally;
 * - `slow`: every answer (queries, inserts, pings) waits `delayMs` first —
 *   the work is done, only the response is late, as with a slow network or
 *   an overloaded server;
 * - `refuse`: every request is refused without running, with a 503 (`how:
 *   'status'`, the default) or by destroying its socket (`how: 'reset'`).
 */
export const FaultModeSchema = z.discriminatedUnion('mode', [
  z.object({ mode: z.literal('ok') }).strict(),
  z.object({ mode: z.literal('slow'), delayMs: z.number().int().min(0).max(600_000) }).strict(),
  z.object({ mode: z.literal('refuse'), how: z.enum(['status', 'reset']).default('status') }).strict(),
]);

export type FaultMode = z.input<typeof FaultModeSchema>;
export type ActiveFaultMode = z.output<typeof FaultModeSchema>;
