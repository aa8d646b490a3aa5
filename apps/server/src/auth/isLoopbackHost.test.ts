import { describe, expect, it } from 'vitest';
import { isLoopbackHost } from './isLoopbackHost.js';
import { resolveAuthMode } from './resolveAuthMode.js';

describe('isLoopbackHost', () => {
  it.each([
    '127.0.0.1',
    '127.1.2.3',
    'localhost',
    'LOCALHOST',
    '::1',
    '[::1]',
    '0:0:0:0:0:0:0:1',
    '0000::0001',
    '::ffff:127.0.0.1',
  ])('%s is loopback', (host) => {
    expect(isLoopbackHost(host)).toBe(true);
  });
  it.each([
    '0.0.0.0',
    '::',
    '192.168.1.10',
    '10.0.0.1',
    '128.0.0.1',
    '::2',
    '::ffff:10.0.0.1',
    '::127.0.0.1',
    'example.com',
    'localhost.example.com',
    '127.0.0.1.nip.io',
    'fe80::1',
  ])('%s is not loopback', (host) => {
    expect(isLoopbackHost(host)).toBe(false);
  });
});

describe('resolveAuthMode', () => {
  it('runs open on loopback by default, and keys when asked', () => {
    expect(resolveAuthMode('127.0.0.1', undefined)).toBe('none');
    expect(resolveAuthMode('::1', 'none')).toBe('none');
    expect(resolveAuthMode('127.0.0.1', 'keys')).toBe('keys');
    expect(resolveAuthMode('0.0.0.0', 'keys')).toBe('keys');
  });

  it('refuses a non-loopback address without keys, saying what to do', () => {
    for (const requested of [undefined, 'none'] as const) {
      expect(() => resolveAuthMode('0.0.0.0', requested)).toThrow(
        /refusing to listen on 0\.0\.0\.0 without authentication.*--auth keys.*--host 127\.0\.0\.1/,
      );
    }
  });
});
