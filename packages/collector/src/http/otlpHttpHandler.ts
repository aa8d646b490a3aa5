import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  HTTP_STATUS_BY_CODE,
  RPC_STATUS_BY_CODE,
  TelltaleError,
  TelltaleErrorCode,
  toTelltaleError,
} from '@telltale/semconv';
import { startExportProgress } from '../ingest/ExportDone.js';
import type { ExportIntake } from '../ingest/ExportIntake.js';
import { RateLimitedError } from '../ingest/RateLimitedError.js';
import { encodeExportResponse, encodeRpcStatus, type OtlpEncoding } from '../otlp/responses.js';
import { ByteBudget } from './ByteBudget.js';
import { readBody } from './readBody.js';

const CONTENT_TYPE: Record<OtlpEncoding, string> = { proto: 'application/x-protobuf', json: 'application/json' };

function encodingOf(req: IncomingMessage): OtlpEncoding | undefined {
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'application/x-protobuf' || type === 'application/protobuf') return 'proto';
  if (type === 'application/json') return 'json';
  return undefined;
}

function send(
  res: ServerResponse,
  status: number,
  encoding: OtlpEncoding,
  body: Uint8Array | string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': CONTENT_TYPE[encoding], ...headers });
  res.end(body);
}

/**
 * OTLP/HTTP trace receiver (`POST /v1/traces`) following the OTLP spec:
 * protobuf or JSON, optionally gzip; 200 with an ExportTraceServiceResponse
 * (partial_success when spans were rejected) only after the spans are
 * durable in the spool; 400/401/403/413/415 with a google.rpc.Status; 429 +
 * Retry-After over a quota; 503 + Retry-After when the data cannot be kept
 * now (spool full, disk failing) or the bodies in memory are at their budget.
 * The Collector makes one (`collector.httpHandler()`).
 */
export function createOtlpHttpHandler(intake: ExportIntake): (req: IncomingMessage, res: ServerResponse) => void {
  const { maxBodyBytes, maxInFlightBytes } = intake.limits;
  const budget = new ByteBudget(maxInFlightBytes);
  const retryAfter = String(intake.limits.retryAfterSeconds);

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const encoding = encodingOf(req) ?? 'json';
    const startedAt = performance.now();
    const progress = startExportProgress();
    let error: TelltaleError | undefined;
    try {
      if (req.method !== 'POST') {
        req.resume();
        res.writeHead(405, { allow: 'POST', 'content-type': 'text/plain' }).end('use POST');
        return;
      }
      if (encodingOf(req) === undefined) {
        throw new TelltaleError({
          code: TelltaleErrorCode.UNSUPPORTED_MEDIA_TYPE,
          message: `unsupported Content-Type ${JSON.stringify(req.headers['content-type'] ?? '')}: use application/x-protobuf or application/json`,
        });
      }
      const projectId = await intake.authenticate(req.headers.authorization, progress);
      intake.refuseWhenOverloaded();
      const reading = performance.now();
      const { pieces, bytes: taken } = await readBody(req, maxBodyBytes, budget);
      progress.stages = { read: performance.now() - reading };
      progress.bytes = taken;
      let partial;
      try {
        // the pieces may move to a worker (detached, length 0): `taken` is what goes back to the budget
        partial = await intake.ingest({ body: pieces, encoding, projectId, nowMs: Date.now() }, progress);
      } finally {
        budget.give(taken);
      }
      send(res, 200, encoding, encodeExportResponse(encoding, partial));
    } catch (caught) {
      const err = (error = toTelltaleError(caught));
      const status = HTTP_STATUS_BY_CODE[err.code];
      const headers: Record<string, string> = status === 503 ? { 'retry-after': retryAfter } : {};
      if (status === 429)
        headers['retry-after'] = err instanceof RateLimitedError ? String(err.retryAfterSeconds) : retryAfter;
      if (status === 401) headers['www-authenticate'] = 'Bearer';
      if (!res.headersSent)
        send(
          res,
          status,
          encoding,
          encodeRpcStatus(encoding, { code: RPC_STATUS_BY_CODE[err.code], message: err.message }),
          headers,
        );
    } finally {
      intake.done({
        ...progress,
        protocol: 'http',
        status: res.statusCode,
        durationMs: performance.now() - startedAt,
        ...(error === undefined ? {} : { error }),
      });
    }
  }

  return (req, res) => {
    void handle(req, res);
  };
}
