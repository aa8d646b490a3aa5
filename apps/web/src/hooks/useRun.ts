import { useQuery } from '@tanstack/react-query';
import { fetchRun } from '../api/runsApi';

/** One run with all its spans. */
export function useRun(runId: string) {
  return useQuery({
    queryKey: ['run', runId],
    queryFn: ({ signal }) => fetchRun(runId, { signal }),
  });
}
