import { storedKey } from './storedKey';

/** Where the dashboard keeps the read key a server started with `--auth keys` asks for. */
export const READ_KEY_STORAGE = 'telltale.readKey';

const readKey = storedKey(READ_KEY_STORAGE);

/** The stored read key, if any (open-mode servers need none). */
export const storedReadKey = readKey.get;

/** Keeps `key` for every later API request; an empty key forgets it. */
export const storeReadKey = readKey.set;
