/** Process-wide counters of the SDK's export path (every provider and processor it created). */
export const counters = {
  /** Spans waiting in batch queues now. */
  queued: 0,
  /** Spans handed to an exporter whose export has not ended yet (it may be retrying). */
  exporting: 0,
  /** Spans dropped because a queue was full (`maxQueueSize`): the agent never waits for the exporter. */
  dropped: 0,
  /** Spans handed to an exporter whose export succeeded / failed. */
  exported: 0,
  failed: 0,
};
