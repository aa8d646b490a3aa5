import { describe, expect, it } from 'vitest';
import { IngestQuota, QUOTA_BURST_SECONDS } from './IngestQuota.js';

describe('IngestQuota', () => {
  const quotas = new Map([['limited', 10]]);
  const clock = { ms: 0 };
  const quota = new IngestQuota(
    (p) => quotas.get(p),
    () => clock.ms,
  );

  it('admits projects without a quota whatever they send', () => {
    for (let i = 0; i < 100; i++) expect(quota.admit('free', 1_000_000)).toBeUndefined();
  });

  it('admits a burst of the bucket, then refuses with Retry-After 1–3 until it refills', () => {
    expect(quota.admit('limited', 10 * QUOTA_BURST_SECONDS)).toBeUndefined();
    expect(quota.admit('limited', 5)).toEqual({ retryAfterSeconds: 1 });
    expect(quota.admit('limited', 25)).toEqual({ retryAfterSeconds: 3 }); // 2.5 s away
    clock.ms += 1_000; // 10 tokens back
    expect(quota.admit('limited', 10)).toBeUndefined();
    expect(quota.admit('limited', 1)).toEqual({ retryAfterSeconds: 1 });
    clock.ms += 100_000; // refilled to the cap, not beyond
    expect(quota.admit('limited', 50)).toBeUndefined();
    expect(quota.admit('limited', 1)).toEqual({ retryAfterSeconds: 1 });
  });

  it('lets a batch larger than the bucket through when the bucket is full, then waits off the debt', () => {
    clock.ms += 100_000;
    expect(quota.admit('limited', 500)).toBeUndefined();
    const refused = quota.admit('limited', 1);
    expect(refused?.retryAfterSeconds).toBe(3); // 45 s of debt, capped at 3
    clock.ms += 46_000;
    expect(quota.admit('limited', 1)).toBeUndefined();
  });

  it('holds long-run throughput to the rate', () => {
    clock.ms += 100_000;
    let admitted = 0;
    for (let t = 0; t < 60_000; t += 100) {
      clock.ms += 100;
      if (quota.admit('limited', 7) === undefined) admitted += 7;
    }
    // 60 s at 10/s plus one burst of the bucket
    expect(admitted).toBeGreaterThanOrEqual(600);
    expect(admitted).toBeLessThanOrEqual(600 + 10 * QUOTA_BURST_SECONDS + 7);
  });

  it('follows a changed quota', () => {
    quotas.set('changing', 1);
    clock.ms += 100_000;
    expect(quota.admit('changing', 5)).toBeUndefined();
    expect(quota.admit('changing', 5)).toBeDefined();
    quotas.set('changing', 1000);
    clock.ms += 1_000; // refills at the new rate
    expect(quota.admit('changing', 1000)).toBeUndefined();
    expect(quota.admit('changing', 1000)).toBeDefined();
    quotas.delete('changing');
    expect(quota.admit('changing', 1e9)).toBeUndefined();
  });
});
