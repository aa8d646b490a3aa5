import { describe, expect, it } from 'vitest';
import { agentSpans } from './agentSpans.js';
import { compareArrowWriters } from './arrowWriterCompare.js';

describe('compareArrowWriters (smoke)', () => {
  it('encodes the same spans with both writers, reads both back to the same rows, and measures each', () => {
    const c = compareArrowWriters(agentSpans(1_100, 3), 512, 1);
    expect(c.firstDifference).toBeUndefined();
    expect(c.sameRows).toBe(true);
    expect(c.spans).toBe(1_100);
    for (const w of [c.handWritten, c.library]) {
      expect(w.usPerSpan).toBeGreaterThan(0);
      expect(w.streamBytes).toBeGreaterThan(1_100 * 100);
    }
    expect(c.library.buildersOnlyUsPerSpan).toBeLessThanOrEqual(c.library.usPerSpan);
  });
});
