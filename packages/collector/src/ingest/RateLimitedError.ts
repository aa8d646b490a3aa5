import { TelltaleError, TelltaleErrorCode } from '@telltale/semconv';

/** Over a project's quota: HTTP 429, gRPC RESOURCE_EXHAUSTED, both with this retry delay. */
export class RateLimitedError extends TelltaleError {
  constructor(readonly retryAfterSeconds: number) {
    super({
      code: TelltaleErrorCode.RATE_LIMITED,
      message: `over the project's ingest quota: retry in ${retryAfterSeconds} s`,
    });
  }
}
