import type { IncomingMessage } from 'node:http';
import { createGunzip, createInflate, type Gunzip, type Inflate } from 'node:zlib';
import { TelltaleError, TelltaleErrorCode } from '@telltale/semconv';
import type { ByteBudget } from './ByteBudget.js';

/** A request body as it was read: its pieces, back to back, and their size in bytes. */
export interface BodyPieces {
  pieces: Buffer[];
  bytes: number;
}

/**
 * Reads a request body, decompressing as it goes, and stops as soon as the
 * decompressed size passes `maxBytes`: a gzip bomb is cut off after at most
 * `maxBytes` of output, never inflated whole. With a budget, every byte read
 * is taken from it (the caller gives `bytes` back when done) and a request
 * that finds it exhausted fails with UNAVAILABLE.
 *
 * The body stays in the pieces the socket (or the inflater) gave, not
 * joined: joining copies it, and the copy is the event loop's, a fresh
 * buffer for every request. An ingest worker joins them into a buffer it
 * reuses (BodyJoiner); the pieces Node gives a socket's reads are each a
 * buffer of their own, so they move to the worker rather than being copied.
 */
export function readBody(req: IncomingMessage, maxBytes: number, budget?: ByteBudget): Promise<BodyPieces> {
  const encoding = (req.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  let inflater: Gunzip | Inflate | undefined;
  if (encoding === 'gzip' || encoding === 'x-gzip') inflater = createGunzip();
  else if (encoding === 'deflate') inflater = createInflate();
  else if (encoding !== 'identity' && encoding !== '') {
    return Promise.reject(
      new TelltaleError({
        code: TelltaleErrorCode.UNSUPPORTED_MEDIA_TYPE,
        message: `unsupported Content-Encoding: ${encoding}`,
      }),
    );
  }
  const declared = Number(req.headers['content-length']);
  if (inflater === undefined && Number.isFinite(declared) && declared > maxBytes) {
    return Promise.reject(tooLarge(maxBytes));
  }

  const source = inflater === undefined ? req : req.pipe(inflater);
  return new Promise<BodyPieces>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const fail = (err: Error): void => {
      if (done) return;
      done = true;
      budget?.give(size);
      if (inflater !== undefined) {
        req.unpipe(inflater);
        inflater.destroy();
      }
      req.resume(); // drain what is left so the connection can answer
      reject(err);
    };
    source.on('data', (chunk: Buffer) => {
      if (done) return; // a refused body is drained (req.resume()), not kept or counted
      if (size + chunk.length > maxBytes) return fail(tooLarge(maxBytes));
      if (budget !== undefined && !budget.tryTake(chunk.length)) return fail(overloaded());
      size += chunk.length;
      chunks.push(chunk);
    });
    source.on('end', () => {
      if (done) return;
      done = true;
      resolve({ pieces: chunks, bytes: size });
    });
    source.on('error', (err: Error) => {
      fail(
        inflater !== undefined && source === inflater
          ? new TelltaleError({
              code: TelltaleErrorCode.BAD_REQUEST,
              message: `invalid ${encoding} body: ${err.message}`,
              cause: err,
            })
          : err,
      );
    });
    if (inflater !== undefined) req.on('error', fail);
    req.on('aborted', () =>
      fail(new TelltaleError({ code: TelltaleErrorCode.BAD_REQUEST, message: 'request aborted' })),
    );
  });
}

function overloaded(): TelltaleError {
  return new TelltaleError({
    code: TelltaleErrorCode.UNAVAILABLE,
    message: 'collector is at its memory limit for request bodies; retry later',
  });
}

function tooLarge(maxBytes: number): TelltaleError {
  return new TelltaleError({
    code: TelltaleErrorCode.PAYLOAD_TOO_LARGE,
    message: `body exceeds ${maxBytes} bytes after decompression`,
  });
}
