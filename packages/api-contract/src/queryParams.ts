import { z } from 'zod';

/** The query of a route that takes none. */
export const NoQuery = z.object({}).strict();

/** A time bound as unix milliseconds or ISO-8601 text (a date is its midnight UTC), converted to nanoseconds. */
export const TimeParam = z
  .union([z.string().regex(/^\d{1,16}$/), z.iso.datetime({ offset: true }), z.iso.date()], {
    error: 'a time: unix ms, or ISO-8601 (2026-11-28, 2026-11-28T09:30:00Z)',
  })
  .transform((value, ctx) => {
    const ms = /^\d+$/.test(value) ? Number(value) : Date.parse(value);
    if (!Number.isFinite(ms)) {
      ctx.addIssue({ code: 'custom', message: 'not a time' });
      return z.NEVER;
    }
    return BigInt(ms) * 1_000_000n;
  });

/** Whether a query's window, when it gives both ends, starts before it ends. */
export function fromBeforeTo(q: { from?: bigint | undefined; to?: bigint | undefined }): boolean {
  return q.from === undefined || q.to === undefined || q.from < q.to;
}

/** Query parameters `attr.<key>=<value>` filter on raw span attributes. */
export const ATTR_PREFIX = 'attr.';
export const MAX_ATTR_FILTERS = 10;
export const ATTR_KEY_PATTERN = /^[A-Za-z0-9_.:-]{1,128}$/;

const Name = (what: string) => z.string().min(1).max(512).describe(what);

/**
 * The filters every analytics route takes. Spread into a route's strict query
 * object; the server lifts `attr.<key>` parameters into `attr`.
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

/** Series bucket widths in seconds; `auto` picks one from the window. */
export const SERIES_INTERVALS = [60, 300, 900, 3600, 21_600, 86_400] as const;
/** `auto` picks the finest interval giving at most this many buckets. */
export const MAX_SERIES_POINTS = 200;

export const IntervalParam = z
  .enum(['auto', ...SERIES_INTERVALS.map(String)], {
    error: `interval is auto or one of ${SERIES_INTERVALS.join(', ')} (seconds)`,
  })
  .default('auto')
  .transform((v) => (v === 'auto' ? ('auto' as const) : Number(v)))
  .describe(
    `bucket width in seconds: ${SERIES_INTERVALS.join(', ')} or auto (the finest giving at most ${MAX_SERIES_POINTS} buckets)`,
  );

/** A run histogram's query: the filters and the number of equal-width bins (`/latency/histogram`, `/cost/histogram`). */
export const HistogramQuery = z
  .object({
    ...FILTER_QUERY,
    buckets: z.coerce
      .number()
      .int()
      .min(1)
      .max(200)
      .default(30)
      .describe('equal-width bins from the smallest to the largest value'),
  })
  .strict();

export function groupByParam<const T extends readonly [string, ...string[]]>(allowed: T) {
  return z.enum(allowed, { error: `groupBy is one of ${allowed.join(', ')}` });
}

export const MAX_RUN_IDS = 500;

/** `runIds=a,b,c`: restrict to these runs (a page of the runs list). */
export const RunIdsParam = z
  .string()
  .transform((s) => s.split(',').filter((id) => id !== ''))
  .pipe(
    z
      .array(z.string().max(256))
      .min(1, 'runIds lists at least one run id')
      .max(MAX_RUN_IDS, `at most ${MAX_RUN_IDS} run ids`),
  )
  .describe(`comma-separated run ids, at most ${MAX_RUN_IDS}`);

/** `limit` and `offset` of a paged list. */
export function pageQuery(maxLimit: number, defaultLimit: number) {
  return {
    limit: z.coerce.number().int().min(1).max(maxLimit).default(defaultLimit),
    offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  };
}
