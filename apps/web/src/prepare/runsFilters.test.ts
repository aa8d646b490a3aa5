import { describe, expect, it } from 'vitest';
import { DEFAULT_FILTERS } from './dashboardFilters';
import {
  DEFAULT_RUNS_FILTERS,
  parseRunsFilters,
  runsFiltersToQuery,
  runsFiltersToSearch,
  updateRunsFilters,
} from './runsFilters';

describe('runs filters in the URL', () => {
  it('reads outcome and page from the query string', () => {
    expect(parseRunsFilters(new URLSearchParams('outcome=failure&service=support&page=3'))).toEqual({
      outcome: 'failure',
      session: '',
      page: 3,
    });
  });

  it('ignores invalid values', () => {
    expect(parseRunsFilters(new URLSearchParams('outcome=maybe&page=-2'))).toEqual(DEFAULT_RUNS_FILTERS);
    expect(parseRunsFilters(new URLSearchParams('page=1.5')).page).toBe(1);
  });

  it('writes only non-default values, keeps the shared filters, and round-trips', () => {
    expect(runsFiltersToSearch(DEFAULT_RUNS_FILTERS).toString()).toBe('');
    const filters = { outcome: 'incomplete' as const, session: 'conv 7/a', page: 2 };
    const search = runsFiltersToSearch(filters, new URLSearchParams('range=7d&service=a+b&session=old&page=9'));
    expect(search.toString()).toBe('range=7d&service=a+b&outcome=incomplete&session=conv+7%2Fa&page=2');
    expect(parseRunsFilters(search)).toEqual(filters);
  });

  it('goes back to page 1 when the outcome changes, not when the page does', () => {
    const onPage4 = { ...DEFAULT_RUNS_FILTERS, page: 4 };
    expect(updateRunsFilters(onPage4, { outcome: 'failure' }).page).toBe(1);
    expect(updateRunsFilters(onPage4, { outcome: undefined }).page).toBe(4);
    expect(updateRunsFilters(onPage4, { page: 5 }).page).toBe(5);
    expect(updateRunsFilters(onPage4, { session: 'conv-1' }).page).toBe(1);
    expect(updateRunsFilters({ ...onPage4, session: 'conv-1' }, { session: '' })).toEqual(DEFAULT_RUNS_FILTERS);
  });

  it('reads the session filter, trimmed, and leaves it out when empty', () => {
    expect(parseRunsFilters(new URLSearchParams('session=%20conv-42%20')).session).toBe('conv-42');
    expect(parseRunsFilters(new URLSearchParams('session=')).session).toBe('');
    expect(parseRunsFilters(new URLSearchParams(`session=${'x'.repeat(600)}`)).session).toHaveLength(512);
    expect(
      runsFiltersToSearch({ ...DEFAULT_RUNS_FILTERS, session: '' }, new URLSearchParams('session=a')).toString(),
    ).toBe('');
  });

  it('turns the page into limit and offset, with the shared window and name filters', () => {
    expect(
      runsFiltersToQuery(
        { outcome: 'failure', session: 'conv-9', page: 3 },
        { ...DEFAULT_FILTERS, service: 'x', tool: 'web.fetch' },
        { fromMs: 1000, toMs: 5000 },
        25,
      ),
    ).toEqual({
      limit: 25,
      offset: 50,
      outcome: 'failure',
      service: 'x',
      agent: undefined,
      step: undefined,
      tool: 'web.fetch',
      model: undefined,
      session: 'conv-9',
      from: '1000',
      to: '5000',
    });
    expect(
      runsFiltersToQuery(DEFAULT_RUNS_FILTERS, DEFAULT_FILTERS, { fromMs: 1000, toMs: 5000 }).session,
    ).toBeUndefined();
  });
});
