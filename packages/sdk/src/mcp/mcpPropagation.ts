import { propagation } from '@opentelemetry/api';
import type { Context, TextMapGetter, TextMapSetter } from '@opentelemetry/api';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { McpMetaKey, TelltaleAttr } from '@telltale/semconv';
import { getRunId, withRunId } from '../internal/runContext.js';

/** W3C trace context + baggage, whatever propagator the app set globally (MCP's `_meta` always uses these). */
const w3c = new CompositePropagator({
  propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()],
});

type Meta = Record<string, unknown>;

const setter: TextMapSetter<Meta> = {
  set: (carrier, key, value) => {
    carrier[key] = value;
  },
};

const getter: TextMapGetter<Meta> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => {
    const value = carrier[key];
    return typeof value === 'string' ? value : undefined;
  },
};

/**
 * Writes the context's trace parent, trace state and baggage into an MCP
 * request's `_meta` (a copy; the caller's object is left alone). The run id
 * travels in the baggage, so a tool server's spans join the agent's run.
 */
export function injectMeta(ctx: Context, meta: unknown): Meta {
  const out: Meta = typeof meta === 'object' && meta !== null ? { ...(meta as Meta) } : {};
  let withBaggage = ctx;
  const runId = getRunId(ctx);
  if (runId !== undefined) {
    const baggage = propagation.getBaggage(ctx) ?? propagation.createBaggage();
    withBaggage = propagation.setBaggage(ctx, baggage.setEntry(TelltaleAttr.runId, { value: runId }));
  }
  w3c.inject(withBaggage, out, setter);
  return out;
}

/** The context an MCP request's `_meta` carries: remote parent, baggage, and the run id from the baggage. */
export function extractMeta(base: Context, meta: unknown): { ctx: Context; hasParent: boolean } {
  if (typeof meta !== 'object' || meta === null) return { ctx: base, hasParent: false };
  const carrier = meta as Meta;
  let ctx = w3c.extract(base, carrier, getter);
  const runId = propagation.getBaggage(ctx)?.getEntry(TelltaleAttr.runId)?.value;
  if (runId !== undefined && runId !== '') ctx = withRunId(ctx, runId);
  return { ctx, hasParent: typeof carrier[McpMetaKey.traceparent] === 'string' };
}
