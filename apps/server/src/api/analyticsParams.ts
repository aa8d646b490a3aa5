import { ATTR_PREFIX, type FilterQuery } from '@telltale/api-contract';
import { autoInterval } from '@telltale/analytics';
import { TelltaleError, TelltaleErrorCode } from '@telltale/semconv';
import type { AnalyticsFilter } from '@telltale/store';
import type { z } from 'zod';

export const DEFAULT_WINDOW_MS = 24 * 60 * 60 * 1000;
/** An explicit interval may cut the window into at most this many buckets. */
export const MAX_BUCKETS = 2000;

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
export function resolveInterval(
  interval: number | 'auto',
  filter: Pick<AnalyticsFilter, 'fromUnixNano' | 'toUnixNano'>,
): number {
  const windowSeconds = Number((filter.toUnixNano - filter.fromUnixNano) / 1_000_000_000n);
  const buckets = (seconds: number): number => Math.ceil(windowSeconds / seconds);
  const seconds = interval === 'auto' ? autoInterval(filter.toUnixNano - filter.fromUnixNano) : interval;
  if (buckets(seconds) > MAX_BUCKETS) {
    throw badRequest(
      `invalid query parameter interval: ${seconds} s gives ${buckets(seconds)} buckets over this window; at most ${MAX_BUCKETS}, choose a wider interval or a shorter window`,
    );
  }
  return seconds;
}

function badRequest(message: string): TelltaleError {
  return new TelltaleError({ code: TelltaleErrorCode.BAD_REQUEST, message });
}
