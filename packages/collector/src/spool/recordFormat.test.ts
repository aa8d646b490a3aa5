import { crc32 } from 'node:zlib';
import { MessageChannel } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { decodeRecordHeader, encodeRecordHeader, payloadChecksumHolds } from './recordFormat.js';

/** `value` after a round trip through a message port, as parts come back from the ingest workers. */
function cloned<T>(value: T): Promise<T> {
  const { port1, port2 } = new MessageChannel();
  return new Promise((resolve) => {
    port2.once('message', (m: T) => {
      port1.close();
      resolve(m);
    });
    port1.postMessage(value);
  });
}

describe('record header', () => {
  it('checksums parts received from another thread, empty ones included', async () => {
    const parts = await cloned([Buffer.from('head'), Buffer.alloc(0), Buffer.from('tail')]);
    const header = encodeRecordHeader(parts, 1, 2);
    const payload = Buffer.concat(parts);
    expect(payload.toString()).toBe('headtail');
    expect(payloadChecksumHolds(payload, decodeRecordHeader(header, 0)!)).toBe(true);
    expect(decodeRecordHeader(header, 0)).toMatchObject({ payloadBytes: 8, crc: crc32(payload), version: 2 });
  });
});
