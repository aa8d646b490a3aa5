import { useQuery } from '@tanstack/react-query';
import { fetchSpanContent } from '../api/contentApi';

/** One span's input and output; the query fails with a 404 / 403 `ApiError` when none is kept / readable. */
export function useSpanContent(runId: string, spanId: string) {
  return useQuery({
    queryKey: ['content', runId, spanId],
    queryFn: ({ signal }) => fetchSpanContent(runId, spanId, { signal }),
  });
}
