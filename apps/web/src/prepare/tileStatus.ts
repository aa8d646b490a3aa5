/** What a tile shows: its content, or one of the three placeholder states. */
export type TileStatus =
  | { kind: 'ready' }
  | { kind: 'loading' }
  | { kind: 'empty'; title: string }
  | { kind: 'error'; error: unknown; retry: () => void };

/** The part of a TanStack query a tile looks at. */
export interface QueryLike {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  refetch: () => unknown;
}

/**
 * The status of a tile fed by `queries`: the first error wins (retrying every
 * failed query), then loading while any is pending, then empty when `empty`
 * says so (a reason), else ready.
 */
export function tileStatus(queries: readonly QueryLike[], empty: () => string | false): TileStatus {
  const failed = queries.filter((q) => q.isError);
  if (failed.length > 0) {
    return {
      kind: 'error',
      error: failed[0]?.error,
      retry: () => {
        for (const q of failed) void q.refetch();
      },
    };
  }
  if (queries.some((q) => q.isPending)) return { kind: 'loading' };
  const reason = empty();
  return reason === false ? { kind: 'ready' } : { kind: 'empty', title: reason };
}
