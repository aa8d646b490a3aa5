/**
 * Row versions for the ReplacingMergeTree tables a person edits (projects,
 * keys): microseconds since the epoch, strictly increasing within the process,
 * so two writes of one row in the same millisecond still order correctly.
 */
let lastStampUs = 0;

export function nextVersionStamp(atLeast = 0): number {
  lastStampUs = Math.max(Date.now() * 1000, lastStampUs + 1, atLeast);
  return lastStampUs;
}

/** Milliseconds since the epoch as ClickHouse DateTime64(3) text. */
export function msToDateTime64(ms: number): string {
  return `${Math.floor(ms / 1000)}.${(ms % 1000).toString().padStart(3, '0')}`;
}
