import type { ErrorRequestHandler, Response } from 'express';
import { HTTP_STATUS_BY_CODE, TelltaleError, TelltaleErrorCode, toTelltaleError } from '@telltale/semconv';
import type { z } from 'zod';

/** Every API error body: `{ error: { code, message } }`. */
export function sendError(res: Response, err: TelltaleError): void {
  if (err.code === TelltaleErrorCode.UNAUTHORIZED) res.setHeader('www-authenticate', 'Bearer');
  if (err.code === TelltaleErrorCode.UNAVAILABLE) res.setHeader('retry-after', '2');
  res.status(HTTP_STATUS_BY_CODE[err.code]).json({ error: { code: err.code, message: err.message } });
}

/** Parses with zod and turns a failure into a BAD_REQUEST naming the offending field. */
export function parseOrThrow<T extends z.ZodType>(schema: T, value: unknown, what: string): z.infer<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = issue === undefined || issue.path.length === 0 ? what : `${what} ${issue.path.join('.')}`;
  throw new TelltaleError({
    code: TelltaleErrorCode.BAD_REQUEST,
    message: `invalid ${where}: ${issue?.message ?? 'invalid value'}`,
  });
}

export function errorMiddleware(onInternal: (err: unknown) => void): ErrorRequestHandler {
  return (caught: unknown, _req, res, next) => {
    if (res.headersSent) {
      next(caught);
      return;
    }
    // body-parser and friends signal client errors with a status.
    const status = (caught as { status?: unknown }).status;
    const err =
      typeof status === 'number' && status >= 400 && status < 500
        ? new TelltaleError({
            code: status === 413 ? TelltaleErrorCode.PAYLOAD_TOO_LARGE : TelltaleErrorCode.BAD_REQUEST,
            message: (caught as Error).message,
          })
        : toTelltaleError(caught);
    if (err.code === TelltaleErrorCode.INTERNAL) onInternal(caught);
    sendError(
      res,
      err.code === TelltaleErrorCode.INTERNAL ? new TelltaleError({ code: err.code, message: 'internal error' }) : err,
    );
  };
}
