import { useQuery } from '@tanstack/react-query';
import { fetchRunContent } from '../api/contentApi';

/** The content of a whole run, fetched once (e.g. for its loop evidence); `enabled: false` holds it back. */
export function useRunContent(runId: string, enabled: boolean) {
  return useQuery({
    queryKey: ['content', runId, 'all'],
    queryFn: ({ signal }) => fetchRunContent(runId, { signal }),
    enabled,
  });
}
