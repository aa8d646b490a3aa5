import type { LoopOptions } from '@telltale/analytics';
import {
  LOOP_THRESHOLD_DEFINITIONS,
  LOOP_THRESHOLD_NAMES,
  loopThresholdRange,
  type LoopThresholdDefinition,
  type LoopThresholdName,
} from '@telltale/semconv';
import { z } from 'zod';

/** One threshold's query parameter, from its definition: out of range is a 400 naming it ("invalid query parameter repeat: must be …"). */
function thresholdParam(name: LoopThresholdName) {
  const d: LoopThresholdDefinition = LOOP_THRESHOLD_DEFINITIONS[name];
  const error = `must be ${loopThresholdRange(name)}`;
  let n = z.coerce.number({ error });
  if (d.integer) n = n.int({ error });
  n = d.minExclusive ? n.gt(d.min, { error }) : n.min(d.min, { error });
  return n.max(d.max, { error }).optional().describe(`${d.description} (default ${d.default})`);
}

/** Loop detection thresholds a request may override (defaults: DEFAULT_LOOP_THRESHOLDS), one per semconv LOOP_THRESHOLD_DEFINITIONS. */
export const LOOP_THRESHOLD_QUERY = Object.fromEntries(
  LOOP_THRESHOLD_NAMES.map((name) => [name, thresholdParam(name)]),
) as Record<LoopThresholdName, ReturnType<typeof thresholdParam>>;

type ThresholdQuery = { [K in keyof typeof LOOP_THRESHOLD_QUERY]?: number | undefined };

export function loopOptionsOf(q: ThresholdQuery): LoopOptions {
  const thresholds = Object.fromEntries(
    Object.entries(q).filter(([k, v]) => k in LOOP_THRESHOLD_QUERY && v !== undefined),
  );
  return Object.keys(thresholds).length === 0 ? {} : { thresholds };
}
