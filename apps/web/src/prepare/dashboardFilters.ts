/**
 * The filters every dashboard page shares, kept in the URL query string so a
 * view can be shared and survives navigation:
 * `?range=7d&service=support&agent=triage&step=retrieve&tool=web.fetch&model=gpt-4o`,
 * or a custom window `?range=custom&from=2026-11-20T08:00:00.000Z&to=…`.
 */
export const RANGE_PRESETS = ['1h', '6h', '24h', '7d', '30d'] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number];
export type RangeChoice = RangePreset | 'custom';

export const RANGE_LABELS: Readonly<Record<RangeChoice, string>> = {
  '1h': 'Last hour',
  '6h': 'Last 6 hours',
  '24h': 'Last 24 hours',
  '7d': 'Last 7 days',
  '30d': 'Last 30 days',
  custom: 'Custom',
};

const PRESET_MS: Readonly<Record<RangePreset, number>> = {
  '1h': 3_600_000,
  '6h': 6 * 3_600_000,
  '24h': 24 * 3_600_000,
  '7d': 7 * 24 * 3_600_000,
  '30d': 30 * 24 * 3_600_000,
};

export const DEFAULT_RANGE: RangePreset = '24h';

/** The name filters, in the order the filter bar shows them (the API's parameter names). */
export const NAME_FILTERS = ['service', 'agent', 'step', 'tool', 'model'] as const;
export type NameFilter = (typeof NAME_FILTERS)[number];

export interface DashboardFilters {
  range: RangeChoice;
  /** Custom window bounds, epoch ms; only with `range: 'custom'`. */
  fromMs: number | undefined;
  toMs: number | undefined;
  service: string;
  agent: string;
  step: string;
  tool: string;
  model: string;
}

export const DEFAULT_FILTERS: DashboardFilters = {
  range: DEFAULT_RANGE,
  fromMs: undefined,
  toMs: undefined,
  service: '',
  agent: '',
  step: '',
  tool: '',
  model: '',
};

/** The query keys this model owns (everything else in the URL belongs to the page). */
export const FILTER_KEYS: readonly string[] = ['range', 'from', 'to', ...NAME_FILTERS];

/** Epoch ms from a URL bound: unix ms digits or ISO-8601; undefined otherwise. */
export function parseTimeBound(value: string | null): number | undefined {
  if (value === null || value === '') return undefined;
  const ms = /^\d{1,16}$/.test(value) ? Number(value) : Date.parse(value);
  return Number.isFinite(ms) ? ms : undefined;
}

export function parseFilters(search: URLSearchParams): DashboardFilters {
  const range = search.get('range');
  const fromMs = parseTimeBound(search.get('from'));
  const toMs = parseTimeBound(search.get('to'));
  const isPreset = (RANGE_PRESETS as readonly string[]).includes(range ?? '');
  // a from/to without a preset is a custom window (old /runs?from= links included)
  const custom = !isPreset && (range === 'custom' || fromMs !== undefined || toMs !== undefined);
  const name = (key: NameFilter): string => search.get(key)?.trim() ?? '';
  return {
    range: isPreset ? (range as RangePreset) : custom ? 'custom' : DEFAULT_RANGE,
    fromMs: custom ? fromMs : undefined,
    toMs: custom ? toMs : undefined,
    service: name('service'),
    agent: name('agent'),
    step: name('step'),
    tool: name('tool'),
    model: name('model'),
  };
}

/** Writes `filters` into `base` (other keys kept), leaving defaults out so URLs stay short. */
export function filtersToSearch(
  filters: DashboardFilters,
  base: URLSearchParams = new URLSearchParams(),
): URLSearchParams {
  const search = new URLSearchParams(base);
  for (const key of FILTER_KEYS) search.delete(key);
  if (filters.range !== DEFAULT_RANGE) search.set('range', filters.range);
  if (filters.range === 'custom') {
    if (filters.fromMs !== undefined) search.set('from', new Date(filters.fromMs).toISOString());
    if (filters.toMs !== undefined) search.set('to', new Date(filters.toMs).toISOString());
  }
  for (const key of NAME_FILTERS) if (filters[key] !== '') search.set(key, filters[key]);
  return search;
}

/** Only the shared filters of a query string: what nav links carry to the next page. */
export function carriedSearch(search: string | URLSearchParams): string {
  const text = filtersToSearch(parseFilters(new URLSearchParams(search))).toString();
  return text === '' ? '' : `?${text}`;
}

/**
 * A link target (`/path` or `/path?extra=1`) with the current filters carried
 * over; the target's own parameters win over the carried ones.
 */
export function linkWithFilters(to: string, currentSearch: string): { pathname: string; search: string } {
  const [pathname = '/', extra = ''] = to.split('?', 2);
  const search = new URLSearchParams(carriedSearch(currentSearch));
  for (const [key, value] of new URLSearchParams(extra)) search.set(key, value);
  const text = search.toString();
  return { pathname, search: text === '' ? '' : `?${text}` };
}

export function hasNameFilter(filters: DashboardFilters): boolean {
  return NAME_FILTERS.some((key) => filters[key] !== '');
}

/** A custom range whose `from` is not before its `to`: it holds no time, and the pages say so instead of showing data. */
export function isInvertedRange(filters: DashboardFilters): boolean {
  return (
    filters.range === 'custom' &&
    filters.fromMs !== undefined &&
    filters.toMs !== undefined &&
    filters.fromMs >= filters.toMs
  );
}

/** A resolved time window, epoch ms, `to` exclusive. */
export interface TimeWindow {
  fromMs: number;
  toMs: number;
}

const MINUTE_MS = 60_000;

/**
 * The window the filters select at `nowMs`. Presets end at the next whole
 * minute, so queries (and their cache keys) stay the same for a minute at a
 * time; a custom window missing a bound falls back to 24 h on that side, and
 * an inverted one (see isInvertedRange) to the 24 h before its `to`.
 */
export function resolveWindow(filters: DashboardFilters, nowMs: number): TimeWindow {
  const end = Math.ceil((nowMs + 1) / MINUTE_MS) * MINUTE_MS;
  if (filters.range !== 'custom') return { fromMs: end - PRESET_MS[filters.range], toMs: end };
  const toMs = filters.toMs ?? (filters.fromMs !== undefined ? filters.fromMs + PRESET_MS['24h'] : end);
  const fromMs = filters.fromMs ?? toMs - PRESET_MS['24h'];
  return fromMs < toMs ? { fromMs, toMs } : { fromMs: toMs - PRESET_MS['24h'], toMs };
}

/** The query parameters every analytics route takes, for a window and the name filters. */
export function analyticsParams(filters: DashboardFilters, window: TimeWindow): Record<string, string> {
  const params: Record<string, string> = { from: String(window.fromMs), to: String(window.toMs) };
  for (const key of NAME_FILTERS) if (filters[key] !== '') params[key] = filters[key];
  return params;
}
