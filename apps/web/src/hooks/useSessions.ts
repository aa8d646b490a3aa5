import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { SessionsQuery } from '../api/sessionsApi';
import { fetchSessions } from '../api/sessionsApi';

/** One page of sessions; the previous page stays on screen while the next one loads. */
export function useSessions(query: SessionsQuery) {
  return useQuery({
    queryKey: ['sessions', query],
    queryFn: ({ signal }) => fetchSessions(query, { signal }),
    placeholderData: keepPreviousData,
  });
}
