import { TelltaleError, TelltaleErrorCode } from '@telltale/semconv';

/**
 * A malformed OTLP request body (protobuf or JSON). Always BAD_REQUEST: the
 * sender must not retry the same bytes. The message says where decoding
 * stopped — a byte offset for protobuf, a field path for JSON — and the same
 * location is available as `offset` / `path` for logging.
 */
export class OtlpDecodeError extends TelltaleError {
  /** Byte offset in the protobuf body where the problem was found. */
  readonly offset: number | undefined;
  /** Field path in the JSON body, e.g. `resourceSpans[0].scopeSpans[1].spans[3].traceId`. */
  readonly path: string | undefined;

  constructor(opts: { message: string; offset?: number; path?: string; cause?: unknown }) {
    const where = opts.offset !== undefined ? ` at byte offset ${opts.offset}` : opts.path ? ` at ${opts.path}` : '';
    super({
      code: TelltaleErrorCode.BAD_REQUEST,
      message: `OTLP decode error${where}: ${opts.message}`,
      cause: opts.cause,
    });
    this.offset = opts.offset;
    this.path = opts.path;
  }
}
