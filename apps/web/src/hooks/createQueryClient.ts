import { QueryClient } from '@tanstack/react-query';
import { isApiError } from '../api/ApiError';

/** Client errors (4xx, a body that breaks the contract) will not fix themselves: do not retry them. */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (isApiError(error) && ((error.status >= 400 && error.status < 500) || error.code === 'BAD_RESPONSE')) return false;
  return failureCount < 2;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 10_000, refetchOnWindowFocus: false, retry: shouldRetry },
    },
  });
}
