import { TelltaleError, TelltaleErrorCode, type ApiKeyKind } from '@telltale/semconv';
import { bearerToken } from './apiKey.js';
import type { KeyCache } from './KeyCache.js';

const WRONG_KIND: Record<ApiKeyKind, string> = {
  ingest:
    'a read key cannot send spans: /v1/traces takes an ingest key (telltale keys create --project <id> --kind ingest)',
  read: 'an ingest key cannot call the API: use a read key (telltale keys create --project <id> --kind read)',
};

/**
 * The project of a request in `--auth keys` mode, from its
 * `Authorization: Bearer <key>` header and nothing else: UNAUTHORIZED for a
 * missing, invalid or revoked key, FORBIDDEN for a key of the other kind.
 */
export class Authenticator {
  constructor(private readonly keys: KeyCache) {}

  async projectOf(authorization: string | undefined, needed: ApiKeyKind): Promise<string> {
    const token = bearerToken(authorization);
    if (token === undefined) {
      throw new TelltaleError({
        code: TelltaleErrorCode.UNAUTHORIZED,
        message: 'missing API key: send Authorization: Bearer <key>',
      });
    }
    const checked = await this.keys.check(token);
    switch (checked.status) {
      case 'invalid':
        throw new TelltaleError({ code: TelltaleErrorCode.UNAUTHORIZED, message: 'invalid API key' });
      case 'revoked':
        throw new TelltaleError({
          code: TelltaleErrorCode.UNAUTHORIZED,
          message: `API key ${checked.key.keyId} has been revoked`,
        });
      case 'unavailable':
        throw new TelltaleError({
          code: TelltaleErrorCode.UNAVAILABLE,
          message: 'cannot check the API key now: retry later',
        });
      case 'ok':
        if (checked.key.kind !== needed)
          throw new TelltaleError({ code: TelltaleErrorCode.FORBIDDEN, message: WRONG_KIND[needed] });
        return checked.key.projectId;
    }
  }
}
