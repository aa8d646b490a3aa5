import { describe, expect, it } from 'vitest';
import { noRequestFacts, type TableRows } from '@telltale/store/encode';
import type { RequestFacts } from './CollectorOptions.js';
import { RequestFactsBuffer } from './RequestFactsBuffer.js';

const table = (bytes = 0): TableRows => ({ bytes: new Uint8Array(bytes), starts: Uint32Array.of(0, bytes) });
const facts = (runId: string, bytes = 10): RequestFacts => ({
  projectId: 'p',
  runs: [{ runId, spans: 1, traces: ['t'], rows: { steps: [0, 0], runSteps: [0, 0], runs: [0, 1] } }],
  rows: { steps: table(), runSteps: table(), runs: table(bytes) },
});

describe('RequestFactsBuffer', () => {
  it('hands settled facts to the drain once, by the key the request got', async () => {
    const buffer = new RequestFactsBuffer();
    const a = buffer.issue();
    const b = buffer.issue();
    expect(a).not.toBe(b);
    buffer.settle(a, facts('run-a'));
    buffer.settle(b, { projectId: 'p', ...noRequestFacts() });
    expect(buffer.heldBytes).toBe(10);
    expect((await buffer.take(a, Date.now()))?.runs[0]?.runId).toBe('run-a');
    expect(await buffer.take(a, Date.now())).toBeUndefined();
    expect(await buffer.take(b, Date.now())).toBeUndefined();
    expect(buffer.heldBytes).toBe(0);
  });

  it('waits for facts still coming until the deadline, and not past it', async () => {
    const buffer = new RequestFactsBuffer();
    const soon = buffer.issue();
    setTimeout(() => buffer.settle(soon, facts('run-soon')), 20);
    expect((await buffer.take(soon, Date.now() + 5_000))?.runs[0]?.runId).toBe('run-soon');
    const never = buffer.issue();
    const started = Date.now();
    expect(await buffer.take(never, started + 50)).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(4_000);
    // facts of a key already taken are let go
    buffer.settle(never, facts('run-late'));
    expect(buffer.heldBytes).toBe(0);
  });

  it('drops facts past its cap, and forgets keys of requests never stored or never taken', async () => {
    let now = 1_000;
    const buffer = new RequestFactsBuffer(25, 60_000, () => now);
    const [a, b, c] = [buffer.issue(), buffer.issue(), buffer.issue()];
    buffer.settle(a, facts('run-a', 20));
    buffer.settle(b, facts('run-b', 20)); // past the cap: dropped, its runs go to SQL
    expect(await buffer.take(b, now)).toBeUndefined();
    buffer.forget(c);
    buffer.settle(c, facts('run-c', 1));
    expect(await buffer.take(c, now)).toBeUndefined();
    now += 60_000;
    buffer.issue(); // forgets what is this old
    expect(buffer.heldBytes).toBe(0);
    expect(await buffer.take(a, now)).toBeUndefined();
  });
});
