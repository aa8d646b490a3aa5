import { createWriteStream } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { PassThrough, Transform, Writable, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { ErrorCatalog } from './ErrorCatalog.js';

/** How a request body is read: at most `limit` bytes after decompression. */
export interface BodyLimits {
  limit: number;
  catalog: ErrorCatalog;
}

/** The body as bytes, decompressed per `Content-Encoding`. */
export async function readBody(req: IncomingMessage, opts: BodyLimits): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      chunks.push(chunk);
      done();
    },
  });
  await pipeline(req, decoder(req, opts), limiter(opts), sink).catch((err: unknown) => rethrow(err, opts));
  return Buffer.concat(chunks);
}

/** Streams the decompressed body into a file; resolves with its size. */
export async function saveBody(req: IncomingMessage, path: string, opts: BodyLimits): Promise<number> {
  const limit = limiter(opts);
  await pipeline(req, decoder(req, opts), limit, createWriteStream(path)).catch((err: unknown) => rethrow(err, opts));
  return limit.bytes;
}

/** zlib's errors become ClickHouse's CANNOT_DECOMPRESS; the rest pass through. */
function rethrow(err: unknown, { catalog }: BodyLimits): never {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && code.startsWith('Z_'))
    throw catalog.error('CANNOT_DECOMPRESS', `Cannot decompress the request body: ${(err as Error).message}`);
  throw err;
}

function decoder(req: IncomingMessage, { catalog }: BodyLimits): Transform {
  const encoding = (req.headers['content-encoding'] ?? '').trim().toLowerCase();
  switch (encoding) {
    case '':
    case 'identity':
    case 'none':
      return new PassThrough();
    case 'gzip':
    case 'x-gzip':
      return createGunzip();
    case 'deflate':
      return createInflate();
    case 'br':
      return createBrotliDecompress();
    default:
      throw catalog.error(
        'NOT_IMPLEMENTED',
        `Content-Encoding ${encoding} is not supported by this test server (gzip, deflate, br are)`,
      );
  }
}

class Limiter extends Transform {
  bytes = 0;

  constructor(private readonly opts: BodyLimits) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.opts.limit)
      done(this.opts.catalog.error('QUERY_IS_TOO_LARGE', `Request body is larger than ${this.opts.limit} bytes`));
    else done(null, chunk);
  }
}

function limiter(opts: BodyLimits): Limiter {
  return new Limiter(opts);
}
