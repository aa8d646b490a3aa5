import { defaultResource, detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import type { Resource } from '@opentelemetry/resources';
import { OtelAttr, TelltaleAttr } from '@telltale/semconv';

export interface ResourceOptions {
  service?: string | undefined;
  project?: string | undefined;
  resourceAttributes?: Record<string, string | number | boolean> | undefined;
}

/**
 * The SDK defaults, then `OTEL_RESOURCE_ATTRIBUTES` and `OTEL_SERVICE_NAME`
 * (OTel's env detector), then the options: `resourceAttributes`, with
 * `service` and `project` winning over everything.
 */
export function telltaleResource(opts: ResourceOptions): Resource {
  const attributes: Record<string, string | number | boolean> = { ...opts.resourceAttributes };
  if (opts.service !== undefined) attributes[OtelAttr.serviceName] = opts.service;
  if (opts.project !== undefined) attributes[TelltaleAttr.project] = opts.project;
  return defaultResource()
    .merge(detectResources({ detectors: [envDetector] }))
    .merge(resourceFromAttributes(attributes));
}
