import { TelltaleError } from '@telltale/semconv';
import { type Store } from '@telltale/store';
import { EMPTY_PRICE_TABLE } from '@telltale/store/testing';
import { describe, expect, it } from 'vitest';
import { Analytics } from '../Analytics.js';
import type { LatencyIntervalSeconds } from './latencySeries.js';

describe('Analytics.latencySeries', () => {
  it('rejects an interval outside the allowlist before querying', async () => {
    let queried = false;
    const store = {
      client: {
        query: () => {
          queried = true;
          throw new Error('no store in this test');
        },
      },
    } as unknown as Store;
    const analytics = new Analytics(store, { pricesFor: () => EMPTY_PRICE_TABLE });
    const filter = { projectId: 'p', fromUnixNano: 0n, toUnixNano: 3_600_000_000_000n };
    const err = await analytics
      .latencySeries(filter, { groupBy: 'step', intervalSeconds: 7 as LatencyIntervalSeconds })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TelltaleError);
    expect((err as TelltaleError).code).toBe('BAD_REQUEST');
    expect(queried).toBe(false);
  });
});
