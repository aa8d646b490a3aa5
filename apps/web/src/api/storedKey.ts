/** A key the dashboard keeps in localStorage under `name`: read it, or keep a new one (an empty key forgets it). */
export interface StoredKey {
  get: () => string | undefined;
  set: (key: string) => void;
}

function storage(): Storage | undefined {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage;
  } catch {
    return undefined; // storage blocked by the browser
  }
}

export function storedKey(name: string): StoredKey {
  return {
    get: () => {
      const key = storage()?.getItem(name) ?? '';
      return key === '' ? undefined : key;
    },
    set: (key) => {
      const trimmed = key.trim();
      if (trimmed === '') storage()?.removeItem(name);
      else storage()?.setItem(name, trimmed);
    },
  };
}
