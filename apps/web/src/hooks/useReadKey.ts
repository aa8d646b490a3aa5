import { useQueryClient } from '@tanstack/react-query';
import { storeReadKey } from '../api/readKey';

/** Stores a read key and refetches every query with it. */
export function useSaveReadKey(): (key: string) => void {
  const queryClient = useQueryClient();
  return (key) => {
    storeReadKey(key);
    void queryClient.resetQueries();
  };
}
