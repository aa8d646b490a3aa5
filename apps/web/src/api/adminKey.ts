/** Where the dashboard keeps the admin key a server started with `--auth keys --admin-key` asks for (like the read key). */
export const ADMIN_KEY_STORAGE = 'telltale.adminKey';

function storage(): Storage | undefined {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage;
  } catch {
    return undefined; // storage blocked by the browser
  }
}

/** The stored admin key, if any (open-mode servers need none). */
export function storedAdminKey(): string | undefined {
  const key = storage()?.getItem(ADMIN_KEY_STORAGE) ?? '';
  return key === '' ? undefined : key;
}

/** Keeps `key` for every later admin request; an empty key forgets it. */
export function storeAdminKey(key: string): void {
  const trimmed = key.trim();
  if (trimmed === '') storage()?.removeItem(ADMIN_KEY_STORAGE);
  else storage()?.setItem(ADMIN_KEY_STORAGE, trimmed);
}
