import { describe, expect, it } from 'vitest';
import {
  DEFAULT_FILTERS,
  analyticsParams,
  carriedSearch,
  filtersToSearch,
  isInvertedRange,
  linkWithFilters,
  parseFilters,
  parseTimeBound,
  resolveWindow,
} from './dashboardFilters';

const HOUR = 3_600_000;
const NOW = Date.parse('2026-11-25T10:30:20Z');

describe('dashboard filters in the URL', () => {
  it('reads presets and name filters, trimming values', () => {
    expect(
      parseFilters(
        new URLSearchParams('range=7d&service=%20support%20&agent=triage&step=retrieve&tool=web.fetch&model=gpt-4o'),
      ),
    ).toEqual({
      ...DEFAULT_FILTERS,
      range: '7d',
      service: 'support',
      agent: 'triage',
      step: 'retrieve',
      tool: 'web.fetch',
      model: 'gpt-4o',
    });
  });

  it('reads a custom window from ISO or unix-ms bounds, also without range=custom', () => {
    expect(parseFilters(new URLSearchParams('range=custom&from=2026-11-20T08:00:00Z&to=1795600000000'))).toMatchObject({
      range: 'custom',
      fromMs: Date.parse('2026-11-20T08:00:00Z'),
      toMs: 1795600000000,
    });
    expect(parseFilters(new URLSearchParams('from=2026-11-20T08:00:00Z')).range).toBe('custom');
    // a preset wins over stray bounds
    expect(parseFilters(new URLSearchParams('range=1h&from=2026-11-20T08:00:00Z'))).toMatchObject({
      range: '1h',
      fromMs: undefined,
    });
  });

  it('falls back to the default for unknown values', () => {
    expect(parseFilters(new URLSearchParams('range=3y&from=yesterday'))).toEqual(DEFAULT_FILTERS);
    expect(parseTimeBound('not a time')).toBeUndefined();
    expect(parseTimeBound('')).toBeUndefined();
  });

  it('writes only what differs from the defaults, keeps other keys, and round-trips', () => {
    expect(filtersToSearch(DEFAULT_FILTERS).toString()).toBe('');
    const filters = {
      ...DEFAULT_FILTERS,
      range: 'custom' as const,
      fromMs: Date.parse('2026-11-20T08:00:00Z'),
      toMs: Date.parse('2026-11-21T08:00:00Z'),
      tool: 'a b',
    };
    const search = filtersToSearch(filters, new URLSearchParams('outcome=failure&service=old'));
    expect(search.toString()).toBe(
      'outcome=failure&range=custom&from=2026-11-20T08%3A00%3A00.000Z&to=2026-11-21T08%3A00%3A00.000Z&tool=a+b',
    );
    expect(parseFilters(search)).toEqual(filters);
  });

  it('carries only the shared filters to other pages, and merges a link target’s own parameters', () => {
    expect(carriedSearch('?range=1h&service=s&page=3&outcome=failure&groupBy=tool')).toBe('?range=1h&service=s');
    expect(carriedSearch('?page=3')).toBe('');
    expect(linkWithFilters('/runs?outcome=failure', '?range=7d&step=plan&page=2')).toEqual({
      pathname: '/runs',
      search: '?range=7d&step=plan&outcome=failure',
    });
    expect(linkWithFilters('/loops', '')).toEqual({ pathname: '/loops', search: '' });
  });
});

describe('resolveWindow', () => {
  it('ends presets at the next whole minute, so the window is stable within a minute', () => {
    const end = Date.parse('2026-11-25T10:31:00Z');
    expect(resolveWindow({ ...DEFAULT_FILTERS, range: '1h' }, NOW)).toEqual({ fromMs: end - HOUR, toMs: end });
    expect(resolveWindow({ ...DEFAULT_FILTERS, range: '7d' }, NOW + 30_000)).toEqual({
      fromMs: end - 7 * 24 * HOUR,
      toMs: end,
    });
    // on the minute exactly: the minute after (the current instant is inside)
    expect(resolveWindow({ ...DEFAULT_FILTERS, range: '24h' }, end).toMs).toBe(end + 60_000);
  });

  it('uses a custom window as given, filling a missing side with 24 h', () => {
    const from = Date.parse('2026-11-20T08:00:00Z');
    expect(resolveWindow({ ...DEFAULT_FILTERS, range: 'custom', fromMs: from, toMs: from + HOUR }, NOW)).toEqual({
      fromMs: from,
      toMs: from + HOUR,
    });
    expect(resolveWindow({ ...DEFAULT_FILTERS, range: 'custom', fromMs: from, toMs: undefined }, NOW)).toEqual({
      fromMs: from,
      toMs: from + 24 * HOUR,
    });
    expect(resolveWindow({ ...DEFAULT_FILTERS, range: 'custom', fromMs: undefined, toMs: from }, NOW)).toEqual({
      fromMs: from - 24 * HOUR,
      toMs: from,
    });
    // reversed bounds: the 24 h before `to`
    expect(resolveWindow({ ...DEFAULT_FILTERS, range: 'custom', fromMs: from + HOUR, toMs: from }, NOW)).toEqual({
      fromMs: from - 24 * HOUR,
      toMs: from,
    });
  });

  it('tells an inverted custom range from the others', () => {
    const from = Date.parse('2026-11-28T01:00:00Z');
    const custom = { ...DEFAULT_FILTERS, range: 'custom' as const };
    expect(isInvertedRange({ ...custom, fromMs: from, toMs: from - HOUR })).toBe(true);
    expect(isInvertedRange({ ...custom, fromMs: from, toMs: from })).toBe(true);
    expect(isInvertedRange({ ...custom, fromMs: from, toMs: from + HOUR })).toBe(false);
    expect(isInvertedRange({ ...custom, fromMs: from, toMs: undefined })).toBe(false);
    expect(
      isInvertedRange(parseFilters(new URLSearchParams('range=custom&from=2026-11-28T01:00Z&to=2026-11-28T00:00Z'))),
    ).toBe(true);
  });

  it('gives the API the window and the non-empty name filters', () => {
    expect(analyticsParams({ ...DEFAULT_FILTERS, agent: 'triage', model: 'gpt-4o' }, { fromMs: 1, toMs: 2 })).toEqual({
      from: '1',
      to: '2',
      agent: 'triage',
      model: 'gpt-4o',
    });
  });
});
