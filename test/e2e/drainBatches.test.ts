import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metricValue } from './harness/metricValue.js';
import { runRequest } from './harness/RunSender.js';
import { TelltaleProcess } from './harness/TelltaleProcess.js';

const REQUESTS = 8;
const SPANS = 600;

describe('--drain-batch-spans sets how many spans one insert of the spool backlog holds', () => {
  let server: TelltaleProcess;

  beforeAll(async () => {
    server = await TelltaleProcess.start({ args: ['--drain-batch-spans', '1000'] });
  }, 90_000);

  afterAll(async () => {
    await server.stop();
  });

  it('stores requests of 600 spans one per insert with batches of 1,000', async () => {
    // sent together, so that without the limit they would share inserts
    const answers = await Promise.all(
      Array.from({ length: REQUESTS }, (_, i) =>
        fetch(`${server.url}/v1/traces`, {
          method: 'POST',
          body: runRequest(`drain-batch-${i}`, SPANS),
          headers: { 'content-type': 'application/json' },
          signal: AbortSignal.timeout(20_000),
        }),
      ),
    );
    expect(answers.map((r) => r.status)).toEqual(answers.map(() => 200));
    let text = '';
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      const res = await fetch(`${server.url}/metrics`, { signal: AbortSignal.timeout(10_000) });
      text = await res.text();
      if (metricValue(text, 'telltale_drain_spans_stored_total') === REQUESTS * SPANS) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(metricValue(text, 'telltale_drain_spans_stored_total')).toBe(REQUESTS * SPANS);
    // two requests would be 1,200 spans: every insert held one
    expect(metricValue(text, 'telltale_drain_batch_duration_seconds_count')).toBe(REQUESTS);
  });
});
