import { describe, expect, it } from 'vitest';
import { DEFAULT_RUNS_FILTERS, parseRunsFilters, runsFiltersToQuery, runsFiltersToSearch, updateRunsFilters } from './runsFilters';

describe('runs filters in the URL', () => {
  it('reads filters and page from the query string', () => {
    expect(parseRunsFilters(new URLSearchParams('outcome=failure&service=%20support%20&page=3&from=2025-01-01'))).toEqual({
      outcome: 'failure',
      service: 'support',
      page: 3,
      from: '2025-01-01',
      to: undefined,
    });
  });

  it('ignores invalid values', () => {
    expect(parseRunsFilters(new URLSearchParams('outcome=maybe&page=-2'))).toEqual(DEFAULT_RUNS_FILTERS);
    expect(parseRunsFilters(new URLSearchParams('page=1.5')).page).toBe(1);
  });

  it('writes only non-default values, and round-trips', () => {
    expect(runsFiltersToSearch(DEFAULT_RUNS_FILTERS).toString()).toBe('');
    const filters = { ...DEFAULT_RUNS_FILTERS, outcome: 'incomplete' as const, service: 'a b', page: 2 };
    const search = runsFiltersToSearch(filters);
    expect(search.toString()).toBe('outcome=incomplete&service=a+b&page=2');
    expect(parseRunsFilters(search)).toEqual(filters);
  });

  it('goes back to page 1 when a filter changes, not when the page does', () => {
    const onPage4 = { ...DEFAULT_RUNS_FILTERS, page: 4 };
    expect(updateRunsFilters(onPage4, { outcome: 'failure' }).page).toBe(1);
    expect(updateRunsFilters(onPage4, { service: '' }).page).toBe(4);
    expect(updateRunsFilters(onPage4, { page: 5 }).page).toBe(5);
  });

  it('turns the page into limit and offset', () => {
    expect(runsFiltersToQuery({ ...DEFAULT_RUNS_FILTERS, page: 3, service: 'x' }, 25)).toEqual({
      limit: 25,
      offset: 50,
      outcome: undefined,
      service: 'x',
      from: undefined,
      to: undefined,
    });
  });
});
