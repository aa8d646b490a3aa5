import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { describe, expect, it } from 'vitest';
import { ProtoReader } from './protoReader.js';
import { encodeExportResponse, encodeRpcStatus } from './responses.js';

/** Decodes a google.rpc.Status by hand (field 1 int32 code, field 2 message). */
function decodeRpcStatus(bytes: Uint8Array): { code: number; message: string; unknown: number } {
  const r = new ProtoReader(bytes);
  const out = { code: 0, message: '', unknown: 0 };
  while (r.pos < r.limit) {
    const tag = r.readTag();
    if (tag === 0x08) out.code = r.readUint32() | 0;
    else if (tag === 0x12) out.message = r.readString();
    else {
      out.unknown++;
      r.skipUnknown(tag, 0, 'Status');
    }
  }
  return out;
}

describe('encodeExportResponse', () => {
  it('encodes full success as the empty message', () => {
    expect(encodeExportResponse('proto')).toEqual(new Uint8Array(0));
    expect(encodeExportResponse('proto', { rejectedSpans: 0, errorMessage: '' })).toEqual(new Uint8Array(0));
    expect(encodeExportResponse('json')).toBe('{}');
    expect(ProtobufTraceSerializer.deserializeResponse(encodeExportResponse('proto'))).toEqual({});
  });

  it('encodes partial success so the official OTLP exporter reads it back', () => {
    const partial = { rejectedSpans: 300, errorMessage: 'span 3: missing trace id — dropped ✗' };
    expect(ProtobufTraceSerializer.deserializeResponse(encodeExportResponse('proto', partial))).toEqual({
      partialSuccess: partial,
    });
    const json = encodeExportResponse('json', partial);
    expect(JSON.parse(json)).toEqual({ partialSuccess: { rejectedSpans: '300', errorMessage: partial.errorMessage } });
    expect(JsonTraceSerializer.deserializeResponse(new TextEncoder().encode(json))).toEqual({
      partialSuccess: { rejectedSpans: '300', errorMessage: partial.errorMessage },
    });
  });

  it('encodes a warning (nothing rejected, message set) and large counts', () => {
    expect(
      ProtobufTraceSerializer.deserializeResponse(
        encodeExportResponse('proto', { rejectedSpans: 0, errorMessage: 'slow down' }),
      ),
    ).toEqual({
      partialSuccess: { errorMessage: 'slow down' },
    });
    const big = 2 ** 40 + 3;
    expect(
      ProtobufTraceSerializer.deserializeResponse(
        encodeExportResponse('proto', { rejectedSpans: big, errorMessage: '' }),
      ),
    ).toEqual({
      partialSuccess: { rejectedSpans: big },
    });
  });

  it('refuses a rejected count that is not a non-negative integer', () => {
    expect(() => encodeExportResponse('json', { rejectedSpans: -1, errorMessage: 'x' })).toThrow(
      /non-negative integer/,
    );
    expect(() => encodeExportResponse('proto', { rejectedSpans: 1.5, errorMessage: 'x' })).toThrow(
      /non-negative integer/,
    );
  });
});

describe('encodeRpcStatus', () => {
  it('encodes code and message in protobuf', () => {
    const bytes = encodeRpcStatus('proto', { code: 3, message: 'bad request: ünïcode' });
    expect(decodeRpcStatus(bytes)).toEqual({ code: 3, message: 'bad request: ünïcode', unknown: 0 });
    expect(Array.from(bytes.subarray(0, 4))).toEqual([0x08, 3, 0x12, 22]);
  });

  it('encodes a negative int32 code as a 10-byte varint and omits defaults', () => {
    const bytes = encodeRpcStatus('proto', { code: -2, message: '' });
    expect(bytes).toHaveLength(11);
    expect(decodeRpcStatus(bytes)).toEqual({ code: -2, message: '', unknown: 0 });
    expect(encodeRpcStatus('proto', { code: 0, message: '' })).toEqual(new Uint8Array(0));
  });

  it('encodes JSON', () => {
    expect(JSON.parse(encodeRpcStatus('json', { code: 8, message: 'too big' }))).toEqual({
      code: 8,
      message: 'too big',
    });
  });

  it('adds a google.rpc.RetryInfo detail for a retry delay', () => {
    const bytes = encodeRpcStatus('proto', { code: 14, message: 'spool is full', retryDelaySeconds: 2 });
    const r = new ProtoReader(bytes);
    const fields: Record<number, Uint8Array | number> = {};
    while (r.pos < r.limit) {
      const tag = r.readTag();
      fields[tag >>> 3] = (tag & 7) === 0 ? r.readUint32() : r.readBytes();
    }
    expect(fields[1]).toBe(14);
    // details[0]: Any { type_url = 1, value = 2 } → RetryInfo { retry_delay = 1 } → Duration { seconds = 1 }
    const any = new ProtoReader(fields[3] as Uint8Array);
    expect(any.readTag()).toBe(0x0a);
    expect(any.readString()).toBe('type.googleapis.com/google.rpc.RetryInfo');
    expect(any.readTag()).toBe(0x12);
    const retryInfo = new ProtoReader(any.readBytes());
    expect(retryInfo.readTag()).toBe(0x0a);
    const duration = new ProtoReader(retryInfo.readBytes());
    expect(duration.readTag()).toBe(0x08);
    expect(duration.readUint32()).toBe(2);
    expect(JSON.parse(encodeRpcStatus('json', { code: 14, message: 'x', retryDelaySeconds: 3 }))).toEqual({
      code: 14,
      message: 'x',
      details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '3s' }],
    });
    expect(() => encodeRpcStatus('proto', { code: 14, message: '', retryDelaySeconds: 1.5 })).toThrow(
      /non-negative integer/,
    );
  });

  it('refuses a code that is not an int32', () => {
    expect(() => encodeRpcStatus('proto', { code: 2 ** 31, message: '' })).toThrow(/int32/);
  });
});
