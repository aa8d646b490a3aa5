import { TelltaleError, TelltaleErrorCode } from '@telltale/semconv';
import { isLoopbackHost } from './isLoopbackHost.js';

/** `keys`: every request needs an API key of the right kind. `none`: open, everything is project `default`. */
export const AUTH_MODES = ['keys', 'none'] as const;
export type AuthMode = (typeof AUTH_MODES)[number];

/**
 * The auth mode for a bind address: as asked, or `none` by default on a
 * loopback address. Listening beyond loopback without keys is refused.
 */
export function resolveAuthMode(host: string, requested: AuthMode | undefined): AuthMode {
  if (requested === 'keys') return 'keys';
  if (isLoopbackHost(host)) return 'none';
  throw new TelltaleError({
    code: TelltaleErrorCode.INVALID_CONFIG,
    message:
      `refusing to listen on ${host} without authentication: anyone who can reach that address could send and read your data. ` +
      'Start with --auth keys (first `telltale projects create <id>` and `telltale keys create --project <id> --kind ingest|read`), ' +
      'or bind a loopback address (--host 127.0.0.1)',
  });
}
