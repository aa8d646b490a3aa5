import type { Attributes, Span } from '@telltale/api-contract';
import { formatCount, formatDuration, formatIso, formatUsd } from '../format';
import { STEP_KIND_SWATCHES } from '../palette';
import type { UnixNanos } from '../units';
import { nanosBetween } from '../units';

export interface DetailField {
  label: string;
  value: string;
  /** Ids, hashes and JSON read better in a monospace font. */
  mono: boolean;
}

export interface AttributeEntry {
  key: string;
  value: string;
  /** The value is an object or array, pretty-printed over several lines. */
  multiline: boolean;
}

export interface EventDetail {
  name: string;
  /** Relative to the span start: `+12.5 ms`. */
  offsetLabel: string;
  timeIso: string;
  attributes: AttributeEntry[];
}

export interface SpanDetail {
  spanId: string;
  title: string;
  kindLabel: string;
  color: string;
  statusLabel: string;
  isError: boolean;
  errorMessage: string;
  fields: DetailField[];
  attributes: AttributeEntry[];
  resourceAttributes: AttributeEntry[];
  events: EventDetail[];
}

/** OTLP `Span.SpanKind` (note: OTLP numbers differ from the OpenTelemetry JS API enum). */
const OTLP_SPAN_KINDS = ['unspecified', 'internal', 'server', 'client', 'producer', 'consumer'] as const;

export function spanKindName(kind: number): string {
  return OTLP_SPAN_KINDS[kind] ?? `kind ${kind}`;
}

export function formatAttributeValue(value: unknown): { value: string; multiline: boolean } {
  if (typeof value === 'string') return { value, multiline: value.includes('\n') };
  if (value === null || value === undefined) return { value: String(value), multiline: false };
  if (typeof value === 'object') {
    const json = JSON.stringify(value, null, 2);
    return { value: json, multiline: json.includes('\n') };
  }
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return { value: String(value), multiline: false };
  return { value: typeof value, multiline: false };
}

/** Attributes sorted by key, values as display strings. */
export function prepareAttributes(attributes: Attributes): AttributeEntry[] {
  return Object.keys(attributes)
    .sort((a, b) => a.localeCompare(b))
    .map((key) => ({ key, ...formatAttributeValue(attributes[key]) }));
}

/** Everything the side panel shows for one span; `axisStart` is the waterfall's time zero. */
export function prepareSpanDetail(span: Span, axisStart: UnixNanos): SpanDetail {
  const swatch = STEP_KIND_SWATCHES[span.stepKind];
  const isError = span.status.code === 'error' || span.errorType !== '';
  const field = (label: string, value: string, mono = false): DetailField => ({ label, value, mono });
  const optional = (label: string, value: string, mono = false): DetailField[] =>
    value ? [field(label, value, mono)] : [];
  const tokens = span.inputTokens + span.outputTokens;

  return {
    spanId: span.spanId,
    title: span.stepName || span.name,
    kindLabel: swatch.label,
    color: swatch.color,
    statusLabel:
      span.status.code === 'error' ? 'Error' : span.status.code === 'ok' ? 'OK' : isError ? 'Error' : 'Unset',
    isError,
    errorMessage: isError ? [span.errorType, span.status.message].filter(Boolean).join(': ') : '',
    fields: [
      field('Span name', span.name),
      ...optional('Step', span.stepName),
      ...optional('Attempt', span.attempt > 0 ? String(span.attempt) : ''),
      ...optional('Tool', span.toolName, true),
      ...optional('Model', span.model, true),
      field('Duration', formatDuration(span.durationNs)),
      field('Starts at', `+${formatDuration(nanosBetween(axisStart, span.startTimeUnixNano))}`),
      field('Start time', formatIso(span.startTimeUnixNano), true),
      field('Side effect', span.sideEffect ? 'yes' : 'no'),
      ...optional(
        'Tokens',
        tokens > 0 ? `${formatCount(span.inputTokens)} in / ${formatCount(span.outputTokens)} out` : '',
      ),
      ...optional('Cost', span.costUsd === null ? '' : formatUsd(span.costUsd)),
      field('Span kind', spanKindName(span.kind)),
      field('Span id', span.spanId, true),
      field('Parent span id', span.parentSpanId || '(root)', true),
      field('Trace id', span.traceId, true),
    ],
    attributes: prepareAttributes(span.attributes),
    resourceAttributes: prepareAttributes(span.resourceAttributes),
    events: [...span.events]
      .sort((a, b) => (a.timeUnixNano < b.timeUnixNano ? -1 : a.timeUnixNano > b.timeUnixNano ? 1 : 0))
      .map((event) => ({
        name: event.name,
        offsetLabel: `+${formatDuration(nanosBetween(span.startTimeUnixNano, event.timeUnixNano))}`,
        timeIso: formatIso(event.timeUnixNano),
        attributes: prepareAttributes(event.attributes),
      })),
  };
}
