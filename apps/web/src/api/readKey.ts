/** Where the dashboard keeps the read key a server started with `--auth keys` asks for. */
export const READ_KEY_STORAGE = 'telltale.readKey';

function storage(): Storage | undefined {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage;
  } catch {
    return undefined; // storage blocked by the browser
  }
}

/** The stored read key, if any (open-mode servers need none). */
export function storedReadKey(): string | undefined {
  const key = storage()?.getItem(READ_KEY_STORAGE) ?? '';
  return key === '' ? undefined : key;
}

/** Keeps `key` for every later API request; an empty key forgets it. */
export function storeReadKey(key: string): void {
  const trimmed = key.trim();
  if (trimmed === '') storage()?.removeItem(READ_KEY_STORAGE);
  else storage()?.setItem(READ_KEY_STORAGE, trimmed);
}
