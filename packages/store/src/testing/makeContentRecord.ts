import type { SpanContentRecord } from '../content/SpanContentRecord.js';

/**
 * A span content record of project p1, run-1, whose input is one user
 * message `text` and whose output answers it; tests override what they
 * care about.
 */
export function makeContentRecord(
  spanId: string,
  text: string,
  overrides: Partial<SpanContentRecord> = {},
): SpanContentRecord {
  return {
    projectId: 'p1',
    traceId: 'b'.repeat(32),
    spanId,
    runId: 'run-1',
    startTimeUnixNano: BigInt(Date.now()) * 1_000_000n,
    input: { messages: [{ role: 'user', content: text }] },
    output: { text: `answer to ${text}` },
    truncated: false,
    originalBytes: text.length,
    capture: 'full',
    redactions: 0,
    ...overrides,
  };
}
