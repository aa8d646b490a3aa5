import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { backoffMs, decide, DEFAULT_RETRY, retryAfterMs } from './retryPolicy.js';
import { generateSecret, isSecret, signWebhook } from './signWebhook.js';

describe('signWebhook (Standard Webhooks)', () => {
  it('produces headers the standardwebhooks library verifies, with either secret during a rotation', () => {
    const [newer, older] = [generateSecret(), generateSecret()];
    expect(isSecret(newer)).toBe(true);
    const body = JSON.stringify({ status: 'firing', value: 0.5 });
    const headers = signWebhook('msg_abc', body, [newer, older], new Date());
    expect(headers['webhook-signature']?.split(' ')).toHaveLength(2);
    for (const secret of [newer, older])
      expect(new Webhook(secret).verify(body, headers)).toEqual({ status: 'firing', value: 0.5 });
    expect(() => new Webhook(generateSecret()).verify(body, headers)).toThrow();
    expect(() => new Webhook(newer).verify(`${body} `, headers)).toThrow();
  });

  it('keeps the id and signs a new timestamp per attempt', () => {
    const secret = generateSecret();
    const a = signWebhook('msg_1', '{}', [secret], new Date(1_700_000_000_000));
    const b = signWebhook('msg_1', '{}', [secret], new Date(1_700_000_060_000));
    expect(a['webhook-id']).toBe(b['webhook-id']);
    expect([a['webhook-timestamp'], b['webhook-timestamp']]).toEqual(['1700000000', '1700000060']);
    expect(a['webhook-signature']).not.toBe(b['webhook-signature']);
  });
});

describe('retry policy', () => {
  const res = (status: number, headers: Record<string, string> = {}) => ({
    kind: 'response' as const,
    status,
    headers,
    url: 'u',
  });
  it('delivers on 2xx, disables on 410, fails on other 4xx and on refusals', () => {
    expect(decide(res(200), 1, DEFAULT_RETRY, 0).outcome).toBe('delivered');
    expect(decide(res(410), 1, DEFAULT_RETRY, 0).outcome).toBe('disabled');
    expect(decide(res(400), 1, DEFAULT_RETRY, 0).outcome).toBe('failed');
    expect(decide({ kind: 'refused', message: 'no', url: 'u' }, 1, DEFAULT_RETRY, 0).outcome).toBe('failed');
  });

  it('retries 5xx, 408, timeouts and connection errors with growing jittered delays, then gives up', () => {
    for (const r of [
      res(503),
      res(500),
      res(408),
      { kind: 'timeout' as const, message: 't', url: 'u' },
      { kind: 'connection' as const, message: 'ECONNREFUSED', url: 'u' },
    ]) {
      expect(decide(r, 1, DEFAULT_RETRY, 0).outcome).toBe('retry');
    }
    expect(decide(res(503), DEFAULT_RETRY.maxAttempts, DEFAULT_RETRY, 0).outcome).toBe('failed');
    const opts = { baseDelayMs: 1000, maxDelayMs: 5000, maxAttempts: 10 };
    expect([1, 2, 3, 4].map((n) => backoffMs(n, opts, () => 1))).toEqual([1000, 2000, 4000, 5000]);
    expect([1, 2, 3, 4].map((n) => backoffMs(n, opts, () => 0))).toEqual([500, 1000, 2000, 2500]);
  });

  it('honours Retry-After on 429 (seconds or a date)', () => {
    expect(decide(res(429, { 'retry-after': '7' }), 1, DEFAULT_RETRY, 0)).toMatchObject({
      outcome: 'retry',
      delayMs: 7000,
    });
    expect(retryAfterMs(new Date(60_000).toUTCString(), 0)).toBe(60_000);
    expect(retryAfterMs('soon', 0)).toBeUndefined();
  });
});
