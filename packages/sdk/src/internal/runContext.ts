import { createContextKey } from '@opentelemetry/api';
import type { Context } from '@opentelemetry/api';

/** The OTel context key holding the id of the run the code is executing in. */
const RUN_ID_KEY = createContextKey('telltale.run.id');

export function getRunId(ctx: Context): string | undefined {
  const value = ctx.getValue(RUN_ID_KEY);
  return typeof value === 'string' ? value : undefined;
}

export function withRunId(ctx: Context, runId: string): Context {
  return ctx.setValue(RUN_ID_KEY, runId);
}
