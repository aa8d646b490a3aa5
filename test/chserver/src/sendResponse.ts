import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { promisify } from 'node:util';
import { brotliCompress, deflate, gzip } from 'node:zlib';
import type { ChException } from './ChException.js';
import { contentTypeFor } from './contentTypeFor.js';
import { httpStatusFor } from './httpStatusFor.js';

const ENCODERS = {
  gzip: promisify(gzip),
  deflate: promisify(deflate),
  br: promisify(brotliCompress),
} as const;
type Encoding = keyof typeof ENCODERS;

/** Counters for `X-ClickHouse-Summary`, which ClickHouse sends as strings. */
export interface Summary {
  read_rows: number;
  read_bytes: number;
  written_rows: number;
  written_bytes: number;
  result_rows: number;
  result_bytes: number;
  elapsed_ns: number;
}

export interface ResultResponse {
  queryId: string;
  format: string;
  data: Uint8Array;
  summary: Summary;
  /** `enable_http_compression=1` was asked for. */
  compress: boolean;
  serverHeaders: OutgoingHttpHeaders;
}

/** A successful answer, compressed when the client asked for it and accepts a codec we have. */
export async function sendResult(req: IncomingMessage, res: ServerResponse, r: ResultResponse): Promise<void> {
  const stats = Object.fromEntries(
    [...Object.entries(r.summary), ['total_rows_to_read', 0]].map(([k, v]) => [k, String(v)]),
  );
  const headers: OutgoingHttpHeaders = {
    ...r.serverHeaders,
    'X-ClickHouse-Query-Id': r.queryId,
    'X-ClickHouse-Format': r.format,
    'X-ClickHouse-Summary': JSON.stringify(stats),
    'Content-Type': contentTypeFor(r.format),
  };
  let body = Buffer.from(r.data.buffer, r.data.byteOffset, r.data.byteLength);
  const encoding = r.compress ? acceptedEncoding(req.headers['accept-encoding']) : undefined;
  if (encoding !== undefined) {
    body = await ENCODERS[encoding](body);
    headers['Content-Encoding'] = encoding;
  }
  headers['Content-Length'] = body.length;
  if (res.destroyed) return;
  res.writeHead(200, headers);
  res.end(body);
}

/** An exception, as ClickHouse answers one before any output was sent. */
export function sendException(
  res: ServerResponse,
  e: ChException,
  version: string,
  queryId: string | undefined,
  serverHeaders: OutgoingHttpHeaders,
): void {
  if (res.destroyed) return;
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = e.toBody(version);
  res.writeHead(httpStatusFor(e.type), {
    ...serverHeaders,
    ...(queryId === undefined ? {} : { 'X-ClickHouse-Query-Id': queryId }),
    'X-ClickHouse-Exception-Code': String(e.code),
    'Content-Type': 'text/plain; charset=UTF-8',
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(body);
}

/** The first codec we support in the client's Accept-Encoding, in the client's order (q=0 excluded). */
function acceptedEncoding(header: string | undefined): Encoding | undefined {
  for (const item of (header ?? '').split(',')) {
    const [name = '', ...params] = item.trim().toLowerCase().split(';');
    if (params.some((p) => /^\s*q=0(\.0*)?\s*$/.test(p))) continue;
    if (name === 'gzip' || name === 'deflate' || name === 'br') return name;
  }
  return undefined;
}
