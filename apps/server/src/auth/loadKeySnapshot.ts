import { type Store } from '@telltale/store';
import type { KeySnapshot } from './KeyCache.js';

/** Every key and project, as the server's key cache holds them (two small FINAL reads). */
export async function loadKeySnapshot(store: Store): Promise<KeySnapshot> {
  const [keys, projects] = await Promise.all([store.auth.listApiKeyRecords(), store.auth.listProjects()]);
  return { keys, projects };
}
