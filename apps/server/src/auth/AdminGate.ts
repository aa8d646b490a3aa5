import { createHash, timingSafeEqual } from 'node:crypto';
import { TelltaleError, TelltaleErrorCode } from '@telltale/semconv';
import { bearerToken, parseApiKey } from './apiKey.js';
import type { AuthMode } from './resolveAuthMode.js';

/** The shortest admin key `telltale start --admin-key` takes. */
export const MIN_ADMIN_KEY_LENGTH = 24;

const sha256 = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

/**
 * Who may call `/api/v1/admin/…` (manage projects and API keys). Open mode
 * (`--auth none`, loopback only): anyone who can reach the server, like every
 * other route. `--auth keys`: only `Authorization: Bearer <admin key>`, the
 * key given to `telltale start --admin-key`, compared in constant time (both
 * sides hashed to SHA-256 first, so the length is not told either). Ingest
 * and read keys never grant admin; without an admin key the admin API is off.
 */
export class AdminGate {
  private readonly keyHash: Buffer | undefined;

  constructor(
    private readonly mode: AuthMode,
    adminKey?: string,
  ) {
    if (adminKey !== undefined && adminKey.length < MIN_ADMIN_KEY_LENGTH) {
      throw new TelltaleError({
        code: TelltaleErrorCode.BAD_REQUEST,
        message: `an admin key must be at least ${MIN_ADMIN_KEY_LENGTH} characters (e.g. openssl rand -hex 32)`,
      });
    }
    this.keyHash = adminKey === undefined ? undefined : sha256(adminKey);
  }

  /** Whether the admin API answers at all: open mode, or keys mode with an admin key. */
  get enabled(): boolean {
    return this.mode === 'none' || this.keyHash !== undefined;
  }

  /** Throws UNAUTHORIZED (no or wrong key) or FORBIDDEN (admin API off, or a project key) unless the request may administer. */
  check(authorization: string | undefined): void {
    if (this.mode === 'none') return;
    if (this.keyHash === undefined) {
      throw new TelltaleError({
        code: TelltaleErrorCode.FORBIDDEN,
        message:
          'the admin API is off: start the server with --admin-key <key> (or TELLTALE_ADMIN_KEY) to manage projects and keys over HTTP',
      });
    }
    const token = bearerToken(authorization);
    if (token === undefined)
      throw new TelltaleError({
        code: TelltaleErrorCode.UNAUTHORIZED,
        message: 'missing admin key: send Authorization: Bearer <admin key>',
      });
    if (timingSafeEqual(sha256(token), this.keyHash)) return;
    const projectKey = parseApiKey(token);
    if (projectKey !== undefined) {
      throw new TelltaleError({
        code: TelltaleErrorCode.FORBIDDEN,
        message: `${projectKey.kind === 'ingest' ? 'an' : 'a'} ${projectKey.kind} key cannot use the admin API (projects, keys, run deletion): send the admin key (--admin-key)`,
      });
    }
    throw new TelltaleError({ code: TelltaleErrorCode.UNAUTHORIZED, message: 'invalid admin key' });
  }
}
