import { autoInterval, LATENCY_INTERVALS, MAX_SERIES_POINTS } from '@telltale/analytics';
import { TelltaleError, TelltaleErrorCode } from '@telltale/semconv';
import type { AnalyticsFilter } from '@telltale/store';
import { z } from 'zod';
import { TimeParam } from './timeParam.js';

/** Query parameters `attr.<key>=<value>` filter on raw span attributes. */
export const ATTR_PREFIX = 'attr.';
export const MAX_ATTR_FILTERS = 10;
export const ATTR_KEY_PATTERN = /^[A-Za-z0-9_.:-]{1,128}$/;
export const DEFAULT_WINDOW_MS = 24 * 60 * 60 * 1000;

const Name = (what: string) => z.string().min(1).max(512).describe(what);

/**
 * The filters every analytics route takes. Spread into a route's strict query
 * object; `parseQuery` lifts `attr.<key>` parameters into `attr`.
 */
export const FILTER_QUERY = {
  from: TimeParam.optional().describe('window start (inclusive): unix ms or ISO-8601; default `to` − 24 h'),
  to: TimeParam.optional().describe('window end (exclusive): unix ms or ISO-8601; default now'),
  service: Name('only runs of this service').optional(),
  agent: Name("only runs whose root is this agent (the run root's name)").optional(),
  step: Name('only steps with this step name (run metrics: runs containing one)').optional(),
  tool: Name('only tool steps of this tool').optional(),
  model: Name('only LLM steps of this model').optional(),
  attr: z
    .record(
      z.string().regex(ATTR_KEY_PATTERN, `an attribute key is 1–128 characters of A–Z a–z 0–9 _ . : -`),
      z.string().max(1024, 'an attribute value is at most 1024 characters'),
    )
    .refine((attrs) => Object.keys(attrs).length <= MAX_ATTR_FILTERS, `at most ${MAX_ATTR_FILTERS} attr.<key> filters`)
    .optional()
    .describe(`exact match on a span attribute, as \`attr.<key>=<value>\`; up to ${MAX_ATTR_FILTERS} different keys`),
};

export type FilterQuery = z.output<z.ZodObject<typeof FILTER_QUERY>>;

/** Series bucket widths in seconds (the facade's); `auto` picks one from the window. */
export const INTERVALS = LATENCY_INTERVALS;
/** An explicit interval may cut the window into at most this many buckets. */
export const MAX_BUCKETS = 2000;

export const IntervalParam = z
  .enum(['auto', ...INTERVALS.map(String)], { error: `interval is auto or one of ${INTERVALS.join(', ')} (seconds)` })
  .default('auto')
  .transform((v) => (v === 'auto' ? ('auto' as const) : Number(v)))
  .describe(`bucket width in seconds: ${INTERVALS.join(', ')} or auto (the finest giving at most ${MAX_SERIES_POINTS} buckets)`);

/** A run histogram's query: the filters and the number of equal-width bins (`/latency/histogram`, `/cost/histogram`). */
export const HistogramQuery = z
  .object({ ...FILTER_QUERY, buckets: z.coerce.number().int().min(1).max(200).default(30).describe('equal-width bins from the smallest to the largest value') })
  .strict();

export function groupByParam<const T extends readonly [string, ...string[]]>(allowed: T) {
  return z.enum(allowed, { error: `groupBy is one of ${allowed.join(', ')}` });
}

/** Rejects repeated parameters, lifts `attr.<key>` into `attr`, then parses strictly. */
export function parseQuery<T extends z.ZodObject>(schema: T, raw: unknown): z.output<T> {
  const source = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  const lifted: Record<string, unknown> = {};
  const attr: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(source)) {
    if (Array.isArray(value)) throw badRequest(`query parameter ${key} is given more than once`);
    if (key.startsWith(ATTR_PREFIX) && 'attr' in schema.shape) attr[key.slice(ATTR_PREFIX.length)] = value;
    else lifted[key] = value;
  }
  if ('attr' in lifted) throw badRequest('unknown query parameter attr: attribute filters are attr.<key>=<value>');
  if (Object.keys(attr).length > 0) lifted.attr = attr;
  const result = schema.safeParse(lifted);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  if (issue?.code === 'unrecognized_keys') {
    const allowed = Object.keys(schema.shape).map((k) => (k === 'attr' ? `${ATTR_PREFIX}<key>` : k));
    throw badRequest(`unknown query parameter ${issue.keys.join(', ')} (allowed: ${allowed.join(', ') || 'none'})`);
  }
  const name = issue === undefined || issue.path.length === 0 ? '' : ` ${issue.path.join('.')}`;
  const detail = issue?.code === 'invalid_key' ? issue.issues[0]?.message : issue?.message;
  throw badRequest(`invalid query parameter${name}: ${detail ?? 'invalid value'}`);
}

/** The filter fields of a parsed query as an AnalyticsFilter; default window: the 24 h before `to`. */
export function toAnalyticsFilter(q: FilterQuery, projectId: string, nowMs = Date.now()): AnalyticsFilter {
  const toUnixNano = q.to ?? BigInt(nowMs) * 1_000_000n;
  const fromUnixNano = q.from ?? toUnixNano - BigInt(DEFAULT_WINDOW_MS) * 1_000_000n;
  if (fromUnixNano >= toUnixNano) throw badRequest('invalid query parameter from: must be before to');
  return {
    projectId,
    fromUnixNano,
    toUnixNano,
    ...(q.service === undefined ? {} : { service: q.service }),
    ...(q.agent === undefined ? {} : { agent: q.agent }),
    ...(q.step === undefined ? {} : { stepName: q.step }),
    ...(q.tool === undefined ? {} : { tool: q.tool }),
    ...(q.model === undefined ? {} : { model: q.model }),
    ...(q.attr === undefined || Object.keys(q.attr).length === 0 ? {} : { attributes: q.attr }),
  };
}

/** The bucket width in seconds for a window: the one asked for, or the facade's automatic choice. */
export function resolveInterval(interval: number | 'auto', filter: Pick<AnalyticsFilter, 'fromUnixNano' | 'toUnixNano'>): number {
  const windowSeconds = Number((filter.toUnixNano - filter.fromUnixNano) / 1_000_000_000n);
  const buckets = (seconds: number): number => Math.ceil(windowSeconds / seconds);
  const seconds = interval === 'auto' ? autoInterval(filter.toUnixNano - filter.fromUnixNano) : interval;
  if (buckets(seconds) > MAX_BUCKETS) {
    throw badRequest(`invalid query parameter interval: ${seconds} s gives ${buckets(seconds)} buckets over this window; at most ${MAX_BUCKETS}, choose a wider interval or a shorter window`);
  }
  return seconds;
}

function badRequest(message: string): TelltaleError {
  return new TelltaleError({ code: TelltaleErrorCode.BAD_REQUEST, message });
}
