import { propagation } from '@opentelemetry/api';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';

/**
 * Registers W3C trace context + W3C baggage as the global propagator, so
 * instrumented HTTP clients and servers carry the trace and the run id
 * across processes. False when another propagator was already registered
 * (that one stays).
 */
export function installPropagator(): boolean {
  return propagation.setGlobalPropagator(
    new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }),
  );
}
