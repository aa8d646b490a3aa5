import { describe, expect, it } from 'vitest';
import { agentWithCollectorDown } from './collectorDown.js';
import { measureOverhead } from './sdkOverhead.js';

// Smoke runs of `npm run bench:sdk`: small sizes, the invariants only (timings are the bench's job).
describe('bench:sdk', () => {
  it('times the bare span, the bare span with attributes and tool() on the same provider', async () => {
    const r = await measureOverhead(500, 3);
    for (const rounds of [r.bareRounds, r.attrsRounds, r.sdkRounds]) expect(rounds).toHaveLength(3);
    expect(r.bareNs).toBeGreaterThan(0);
    expect(r.ratio).toBe(r.sdkNs / r.bareNs);
    expect(r.ratioAttrs).toBe(r.sdkNs / r.attrsNs);
    const perRound = r.sdkRounds.map((x, i) => x / r.bareRounds[i]!).sort((a, b) => a - b);
    expect(r.pairedRatio).toBe(perRound[1]);
  });

  it('with the collector down every span is exported, failed, queued, dropped or in an export in flight', async () => {
    const runs = 2000;
    const r = await agentWithCollectorDown('sdk', runs);
    const total = (runs + 200) * 7;
    const s = r.stats!;
    const accounted = s.droppedSpans + s.queuedSpans + s.exportingSpans + s.exportedSpans + s.failedSpans;
    expect(s.queuedSpans).toBeLessThanOrEqual(2048);
    expect(s.droppedSpans).toBeGreaterThan(0);
    // the one export in flight (a batch of at most 512) is counted too: every span is somewhere
    expect(s.exportingSpans).toBeLessThanOrEqual(512);
    expect(accounted).toBe(total);
    expect(r.shutdownMs).toBeLessThan(10_000);
  });
});
