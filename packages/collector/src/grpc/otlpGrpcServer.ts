import {
  logVerbosity,
  Metadata,
  Server,
  ServerCredentials,
  setLogVerbosity,
  type sendUnaryData,
  type ServerUnaryCall,
  type ServiceDefinition,
} from '@grpc/grpc-js';
import { RPC_STATUS_BY_CODE, TelltaleError, TelltaleErrorCode, toTelltaleError } from '@telltale/semconv';
import { ByteBudget } from '../http/ByteBudget.js';
import { startExportProgress, type ExportProgress } from '../ingest/ExportDone.js';
import type { ExportIntake } from '../ingest/ExportIntake.js';
import { RateLimitedError } from '../ingest/RateLimitedError.js';
import { encodeExportResponse, encodeRpcStatus } from '../otlp/responses.js';

export interface OtlpGrpcServer {
  /** The port bound (useful with port 0). */
  port: number;
  /** Stops taking calls, lets the calls under way finish (at most `graceMs`), then closes. */
  close: (graceMs?: number) => Promise<void>;
}

const identity = (b: Buffer): Buffer => b;

/**
 * opentelemetry.proto.collector.trace.v1.TraceService with the raw bytes as
 * request and response: the request goes to our own decoder (in a worker
 * thread), not through a generated deserializer.
 */
const TRACE_SERVICE: ServiceDefinition = {
  Export: {
    path: '/opentelemetry.proto.collector.trace.v1.TraceService/Export',
    requestStream: false,
    responseStream: false,
    requestSerialize: identity,
    requestDeserialize: identity,
    responseSerialize: (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength),
    responseDeserialize: identity,
  },
};

function firstValue(metadata: Metadata, key: string): string | undefined {
  const value = metadata.get(key)[0];
  return value === undefined ? undefined : value.toString();
}

/**
 * OTLP/gRPC trace receiver: the same durability, limits and auth as OTLP/HTTP
 * (the same ExportIntake), with the spec's status codes — INVALID_ARGUMENT for an
 * undecodable message, UNAUTHENTICATED / PERMISSION_DENIED, RESOURCE_EXHAUSTED
 * for a message over the size limit (grpc-js checks it after decompression)
 * and over a quota, UNAVAILABLE when the data cannot be kept now. The
 * retryable ones carry a google.rpc.RetryInfo in `grpc-status-details-bin`.
 * gzip-compressed messages are inflated by grpc-js. The Collector starts
 * one (`collector.startGrpc(host, port)`).
 */
export async function startOtlpGrpcServer(host: string, port: number, intake: ExportIntake): Promise<OtlpGrpcServer> {
  const { maxBodyBytes: maxMessageBytes, maxInFlightBytes, retryAfterSeconds: retryAfter } = intake.limits;
  // what fails reaches the caller as an error (a port in use: LISTEN_FAILED): grpc-js's own console lines only
  // when asked for, as its GRPC_VERBOSITY documents
  if (process.env.GRPC_NODE_VERBOSITY === undefined && process.env.GRPC_VERBOSITY === undefined)
    setLogVerbosity(logVerbosity.NONE);
  const budget = new ByteBudget(maxInFlightBytes);

  async function handle(call: ServerUnaryCall<Buffer, Uint8Array>, progress: ExportProgress): Promise<Uint8Array> {
    // the `authorization` metadata: `Bearer <key>`, the exporter's `headers` / `metadata`
    const projectId = await intake.authenticate(firstValue(call.metadata, 'authorization'), progress);
    intake.refuseWhenOverloaded();
    const body = call.request;
    const taken = body.length;
    progress.bytes = taken;
    if (!budget.tryTake(taken))
      throw new TelltaleError({
        code: TelltaleErrorCode.UNAVAILABLE,
        message: 'too many requests in memory; retry later',
      });
    try {
      // grpc-js may hand over a view of a larger buffer: the worker gets a copy of its own
      const own = body.byteOffset === 0 && body.byteLength === body.buffer.byteLength ? body : Buffer.from(body);
      return encodeExportResponse(
        'proto',
        await intake.ingest({ body: own, encoding: 'proto', projectId, nowMs: Date.now() }, progress),
      );
    } finally {
      budget.give(taken);
    }
  }

  const exportCall = (call: ServerUnaryCall<Buffer, Uint8Array>, callback: sendUnaryData<Uint8Array>): void => {
    const startedAt = performance.now();
    const progress = startExportProgress();
    const done = (status: number, error?: TelltaleError): void =>
      intake.done({
        ...progress,
        protocol: 'grpc',
        status,
        durationMs: performance.now() - startedAt,
        ...(error === undefined ? {} : { error }),
      });
    handle(call, progress).then(
      (response) => {
        callback(null, response);
        done(0);
      },
      (caught: unknown) => {
        const err = toTelltaleError(caught);
        const code = RPC_STATUS_BY_CODE[err.code];
        const retryDelaySeconds =
          err instanceof RateLimitedError
            ? err.retryAfterSeconds
            : code === RPC_STATUS_BY_CODE.UNAVAILABLE
              ? retryAfter
              : undefined;
        const metadata = new Metadata();
        if (retryDelaySeconds !== undefined) {
          metadata.set(
            'grpc-status-details-bin',
            Buffer.from(encodeRpcStatus('proto', { code, message: err.message, retryDelaySeconds })),
          );
        }
        callback({ code, details: err.message, metadata });
        done(code, err);
      },
    );
  };

  const server = new Server({
    'grpc.max_receive_message_length': maxMessageBytes,
    'grpc.max_send_message_length': 1024 * 1024,
  });
  server.addService(TRACE_SERVICE, { Export: exportCall });
  const address = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
  const bound = await new Promise<number>((resolve, reject) => {
    server.bindAsync(address, ServerCredentials.createInsecure(), (err, p) =>
      err === null ? resolve(p) : reject(err),
    );
  });

  let closing: Promise<void> | undefined;
  const close = (graceMs = 5_000): Promise<void> => {
    closing ??= new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        server.forceShutdown();
        resolve();
      }, graceMs);
      server.tryShutdown(() => {
        clearTimeout(timer);
        resolve();
      });
    });
    return closing;
  };
  return { port: bound, close };
}
