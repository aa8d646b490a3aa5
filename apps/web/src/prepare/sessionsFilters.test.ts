import { describe, expect, it } from 'vitest';
import { DEFAULT_FILTERS } from './dashboardFilters';
import { parseRunsFilters } from './runsFilters';
import {
  parseSessionsPage,
  sessionRunsHref,
  sessionsPageToSearch,
  sessionsQuery,
  shortSessionId,
} from './sessionsFilters';

describe('sessions page in the URL', () => {
  it('reads the page, page 1 for anything invalid', () => {
    expect(parseSessionsPage(new URLSearchParams('page=3&range=7d'))).toBe(3);
    for (const bad of ['', 'page=0', 'page=-1', 'page=1.5', 'page=x'])
      expect(parseSessionsPage(new URLSearchParams(bad)), bad).toBe(1);
  });

  it('writes the page next to the shared filters, page 1 left out', () => {
    expect(sessionsPageToSearch(2, new URLSearchParams('range=7d&service=a&page=5')).toString()).toBe(
      'range=7d&service=a&page=2',
    );
    expect(sessionsPageToSearch(1, new URLSearchParams('service=a&page=5')).toString()).toBe('service=a');
  });

  it('asks the API for the page in the window, with the service filter only', () => {
    expect(
      sessionsQuery(3, { ...DEFAULT_FILTERS, service: 'support', agent: 'triage' }, { fromMs: 1000, toMs: 5000 }, 20),
    ).toEqual({
      limit: 20,
      offset: 40,
      service: 'support',
      from: '1000',
      to: '5000',
    });
    expect(sessionsQuery(1, DEFAULT_FILTERS, { fromMs: 1, toMs: 2 }).service).toBeUndefined();
  });
});

describe('links to a session’s runs', () => {
  it('keep the window and service, and drop the other filters and the page', () => {
    const href = sessionRunsHref(
      'conv/7 a',
      'range=custom&from=2026-11-20T08:00:00.000Z&to=2026-11-21T08:00:00.000Z&service=support&agent=triage&tool=x&page=4',
    );
    expect(href).toBe(
      '/runs?range=custom&from=2026-11-20T08%3A00%3A00.000Z&to=2026-11-21T08%3A00%3A00.000Z&service=support&session=conv%2F7+a',
    );
    expect(parseRunsFilters(new URL(href, 'http://x').searchParams)).toEqual({
      outcome: undefined,
      session: 'conv/7 a',
      page: 1,
    });
    expect(sessionRunsHref('c1', '')).toBe('/runs?session=c1');
  });

  it('shorten long ids for table cells', () => {
    expect(shortSessionId('conv-1')).toBe('conv-1');
    expect(shortSessionId('0123456789abcdef')).toBe('0123456789ab…');
    expect(shortSessionId('0123456789abcdef', 16)).toBe('0123456789abcdef');
  });
});
