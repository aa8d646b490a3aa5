import { useQuery, useQueryClient } from '@tanstack/react-query';
import { fetchRunContentSpans, fetchSpanContent } from '../api/contentApi';

/**
 * One span's input and output: `null` when none is kept. The run's content
 * index (which spans have content, shared by its spans' panels) is asked
 * first, so a span without content costs no request that answers 404; the
 * query fails with a 403 `ApiError` when the project hides content.
 */
export function useSpanContent(runId: string, spanId: string) {
  const client = useQueryClient();
  return useQuery({
    queryKey: ['content', runId, spanId],
    queryFn: async ({ signal }) => {
      const index = await client.fetchQuery({
        queryKey: ['content', runId, 'spans'],
        queryFn: ({ signal: indexSignal }) => fetchRunContentSpans(runId, { signal: indexSignal }),
        staleTime: INDEX_FRESH_MS,
      });
      // an index cut at its limit may leave the span out: ask for it then
      const listed = index.spanIds.includes(spanId) || index.spanIds.length >= index.limit;
      return listed ? fetchSpanContent(runId, spanId, { signal }) : null;
    },
  });
}

/** How long a run's content index answers its spans' panels before it is asked again (content lands apart from spans). */
const INDEX_FRESH_MS = 5_000;
