import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { RunsQuery } from '../api/runsApi';
import { fetchRuns } from '../api/runsApi';

/** One page of runs; the previous page stays on screen while the next one loads. */
export function useRuns(query: RunsQuery) {
  return useQuery({
    queryKey: ['runs', query],
    queryFn: ({ signal }) => fetchRuns(query, { signal }),
    placeholderData: keepPreviousData,
  });
}
