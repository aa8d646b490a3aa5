import { MessageChannel } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { movableBuffers } from './movableBuffers.js';

describe('movableBuffers', () => {
  it('takes the buffers views cover whole, once each, and leaves slices, empty and shared ones', () => {
    const whole = new Uint8Array(64);
    const steps = new Float64Array(4);
    const pooled = Buffer.from('a small Buffer: a slice of the shared pool');
    const slice = whole.subarray(8, 16);
    const shared = new Uint8Array(new SharedArrayBuffer(16));
    expect(pooled.byteLength).toBeLessThan(pooled.buffer.byteLength);
    expect(movableBuffers([whole, pooled, slice, whole, steps, new Uint8Array(0), shared])).toEqual([
      whole.buffer,
      steps.buffer,
    ]);
  });

  it('gives a transfer list postMessage takes: the whole buffers move, the pool slice is copied', () => {
    const whole = new Uint8Array([1, 2, 3]);
    const pooled = Buffer.from('pooled');
    const { port1, port2 } = new MessageChannel();
    try {
      port1.postMessage({ whole, pooled }, movableBuffers([whole, pooled]));
      expect(whole.byteLength).toBe(0);
      expect(pooled.toString()).toBe('pooled');
    } finally {
      port1.close();
      port2.close();
    }
  });
});
