import { describe, expect, it } from 'vitest';
import type { QueryLike } from './tileStatus';
import { tileStatus } from './tileStatus';

function query(state: Partial<QueryLike> = {}): QueryLike & { refetched: number } {
  const q: QueryLike & { refetched: number } = {
    isPending: false,
    isError: false,
    error: null,
    refetched: 0,
    refetch: (): void => {
      q.refetched += 1;
    },
    ...state,
  };
  return q;
}

describe('tileStatus', () => {
  it('shows the first error, and retry refetches every failed query', () => {
    const a = query({ isError: true, error: new Error('a') });
    const b = query({ isPending: true });
    const c = query({ isError: true, error: new Error('c') });
    const status = tileStatus([a, b, c], () => false);
    expect(status).toMatchObject({ kind: 'error', error: new Error('a') });
    if (status.kind === 'error') status.retry();
    expect([a.refetched, b.refetched, c.refetched]).toEqual([1, 0, 1]);
  });

  it('is loading while any query is pending, then empty or ready', () => {
    expect(tileStatus([query(), query({ isPending: true })], () => false).kind).toBe('loading');
    expect(tileStatus([query()], () => 'No runs')).toEqual({ kind: 'empty', title: 'No runs' });
    expect(tileStatus([query()], () => false)).toEqual({ kind: 'ready' });
  });
});
