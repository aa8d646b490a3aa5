import { storedKey } from './storedKey';

/** Where the dashboard keeps the admin key a server started with `--auth keys --admin-key` asks for (like the read key). */
export const ADMIN_KEY_STORAGE = 'telltale.adminKey';

const adminKey = storedKey(ADMIN_KEY_STORAGE);

/** The stored admin key, if any (open-mode servers need none). */
export const storedAdminKey = adminKey.get;

/** Keeps `key` for every later admin request; an empty key forgets it. */
export const storeAdminKey = adminKey.set;
