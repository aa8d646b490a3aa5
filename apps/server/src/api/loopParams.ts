import type { LoopOptions } from '@telltale/analytics';
import { z } from 'zod';

/** Loop detection thresholds a request may override (defaults: DEFAULT_LOOP_THRESHOLDS). */
export const LOOP_THRESHOLD_QUERY = {
  repeat: z.coerce.number().int().min(2).max(1000).optional().describe('same (tool, args), same state hash or same failed validation this many times is a loop (default 3)'),
  pingPongCycles: z.coerce.number().int().min(2).max(1000).optional().describe('A→B alternations of at least this many cycles (default 3)'),
  runawayMultiplier: z.coerce.number().gt(0).max(1000).optional().describe("runaway: more steps than this × the agent's median steps per run (default 3)"),
  runawayHardCap: z.coerce.number().int().min(1).max(1_000_000).optional().describe('runaway: … or more than this many steps (default 50)'),
};

type ThresholdQuery = { [K in keyof typeof LOOP_THRESHOLD_QUERY]?: number | undefined };

export function loopOptionsOf(q: ThresholdQuery): LoopOptions {
  const thresholds = Object.fromEntries(Object.entries(q).filter(([k, v]) => k in LOOP_THRESHOLD_QUERY && v !== undefined));
  return Object.keys(thresholds).length === 0 ? {} : { thresholds };
}
