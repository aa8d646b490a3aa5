import { TelltaleError, TelltaleErrorCode } from '@telltale/semconv';

/*
 * Response bodies of the OTLP trace endpoints:
 *  - ExportTraceServiceResponse { ExportTracePartialSuccess partial_success = 1; }
 *    ExportTracePartialSuccess { int64 rejected_spans = 1; string error_message = 2; }
 *  - google.rpc.Status { int32 code = 1; string message = 2; repeated Any details = 3; }
 *    (the body of every OTLP/HTTP 4xx/5xx response, and the gRPC
 *    `grpc-status-details-bin` trailer); its only detail ever sent is a
 *    google.rpc.RetryInfo { Duration retry_delay = 1; } when a retry delay
 *    is given (OTLP/gRPC's way to say when to retry; OTLP/HTTP uses Retry-After).
 * Protobuf bodies are Uint8Array, JSON bodies are strings.
 */

export type OtlpEncoding = 'proto' | 'json';

export interface OtlpPartialSuccess {
  /** Spans the server did not accept (a non-negative safe integer). */
  rejectedSpans: number;
  /** Why; may be set with rejectedSpans 0 as a warning. */
  errorMessage: string;
}

export interface RpcStatus {
  /** A google.rpc.Code value (int32), e.g. 3 INVALID_ARGUMENT, 8 RESOURCE_EXHAUSTED. */
  code: number;
  message: string;
  /** Whole seconds; adds a google.rpc.RetryInfo detail. */
  retryDelaySeconds?: number;
}

const RETRY_INFO_TYPE = 'type.googleapis.com/google.rpc.RetryInfo';

/**
 * Encodes an ExportTraceServiceResponse. With nothing rejected and no message
 * the body is the empty message (`{}` / zero bytes): a present-but-empty
 * partial_success is reserved by the spec for warnings.
 */
export function encodeExportResponse(format: 'proto', partial?: OtlpPartialSuccess): Uint8Array;
export function encodeExportResponse(format: 'json', partial?: OtlpPartialSuccess): string;
export function encodeExportResponse(format: OtlpEncoding, partial?: OtlpPartialSuccess): Uint8Array | string;
export function encodeExportResponse(format: OtlpEncoding, partial?: OtlpPartialSuccess): Uint8Array | string {
  if (partial === undefined || (partial.rejectedSpans === 0 && partial.errorMessage === '')) {
    return format === 'json' ? '{}' : new Uint8Array(0);
  }
  if (!Number.isSafeInteger(partial.rejectedSpans) || partial.rejectedSpans < 0) {
    throw new TelltaleError({
      code: TelltaleErrorCode.INTERNAL,
      message: `rejectedSpans must be a non-negative integer, got ${partial.rejectedSpans}`,
    });
  }
  if (format === 'json') {
    // int64 is a decimal string in OTLP/JSON.
    return JSON.stringify({
      partialSuccess: { rejectedSpans: String(partial.rejectedSpans), errorMessage: partial.errorMessage },
    });
  }
  const inner = new ProtoWriter();
  if (partial.rejectedSpans !== 0) inner.varintField(1, partial.rejectedSpans);
  if (partial.errorMessage !== '') inner.bytesField(2, utf8.encode(partial.errorMessage));
  return new ProtoWriter().bytesField(1, inner.finish()).finish();
}

/** Encodes a google.rpc.Status, the body of OTLP/HTTP error responses. */
export function encodeRpcStatus(format: 'proto', status: RpcStatus): Uint8Array;
export function encodeRpcStatus(format: 'json', status: RpcStatus): string;
export function encodeRpcStatus(format: OtlpEncoding, status: RpcStatus): Uint8Array | string;
export function encodeRpcStatus(format: OtlpEncoding, status: RpcStatus): Uint8Array | string {
  if (!Number.isInteger(status.code) || status.code < -0x80000000 || status.code > 0x7fffffff) {
    throw new TelltaleError({
      code: TelltaleErrorCode.INTERNAL,
      message: `rpc status code must be an int32, got ${status.code}`,
    });
  }
  const delay = status.retryDelaySeconds;
  if (delay !== undefined && (!Number.isSafeInteger(delay) || delay < 0)) {
    throw new TelltaleError({
      code: TelltaleErrorCode.INTERNAL,
      message: `retryDelaySeconds must be a non-negative integer, got ${delay}`,
    });
  }
  if (format === 'json') {
    const details = delay === undefined ? {} : { details: [{ '@type': RETRY_INFO_TYPE, retryDelay: `${delay}s` }] };
    return JSON.stringify({ code: status.code, message: status.message, ...details });
  }
  const w = new ProtoWriter();
  if (status.code !== 0) w.varintField(1, status.code);
  if (status.message !== '') w.bytesField(2, utf8.encode(status.message));
  if (delay !== undefined) {
    const duration = new ProtoWriter().varintField(1, delay).finish();
    const retryInfo = new ProtoWriter().bytesField(1, duration).finish();
    w.bytesField(3, new ProtoWriter().bytesField(1, utf8.encode(RETRY_INFO_TYPE)).bytesField(2, retryInfo).finish());
  }
  return w.finish();
}

const utf8 = new TextEncoder();

/** Just enough of a protobuf writer for these two small messages. */
class ProtoWriter {
  private readonly out: number[] = [];
  private readonly chunks: Uint8Array[] = [];
  private size = 0;

  /** A varint field; negative int32/int64 values take 10 bytes (two's complement), as protobuf requires. */
  varintField(field: number, value: number): this {
    this.varint(field << 3);
    if (value >= 0) this.varint(value);
    else {
      let v = BigInt.asUintN(64, BigInt(value));
      while (v >= 0x80n) {
        this.out.push(Number(v & 0x7fn) | 0x80);
        v >>= 7n;
      }
      this.out.push(Number(v));
    }
    return this;
  }

  bytesField(field: number, bytes: Uint8Array): this {
    this.varint((field << 3) | 2);
    this.varint(bytes.length);
    this.flush();
    this.chunks.push(bytes);
    this.size += bytes.length;
    return this;
  }

  finish(): Uint8Array {
    this.flush();
    const result = new Uint8Array(this.size);
    let offset = 0;
    for (const chunk of this.chunks) {
      result.set(chunk, offset);
      offset += chunk.length;
    }
    return result;
  }

  /** Non-negative integer up to 2^53. */
  private varint(value: number): void {
    let v = value;
    while (v >= 0x80) {
      this.out.push((v % 0x80) | 0x80);
      v = Math.floor(v / 0x80);
    }
    this.out.push(v);
  }

  private flush(): void {
    if (this.out.length === 0) return;
    this.chunks.push(Uint8Array.from(this.out));
    this.size += this.out.length;
    this.out.length = 0;
  }
}
