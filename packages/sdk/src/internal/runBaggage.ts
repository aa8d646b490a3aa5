import { propagation } from '@opentelemetry/api';
import type { Context } from '@opentelemetry/api';
import { MAX_RUN_ID_LENGTH, TelltaleAttr } from '@telltale/semconv';

/** The W3C baggage entry carrying the run id to other processes: `telltale.run.id`. */
export const RUN_ID_BAGGAGE_KEY = TelltaleAttr.runId;

/** `ctx` with the run id in its baggage, keeping the other baggage entries. */
export function withRunIdBaggage(ctx: Context, runId: string): Context {
  const current = propagation.getBaggage(ctx) ?? propagation.createBaggage();
  return propagation.setBaggage(ctx, current.setEntry(RUN_ID_BAGGAGE_KEY, { value: runId }));
}

/** The run id in `ctx`'s baggage (put there by `run()` here or in an upstream process), if usable. */
export function getRunIdFromBaggage(ctx: Context): string | undefined {
  const value = propagation.getBaggage(ctx)?.getEntry(RUN_ID_BAGGAGE_KEY)?.value.trim();
  return value === undefined || value === '' || value.length > MAX_RUN_ID_LENGTH ? undefined : value;
}
