import type { SpanProcessor } from '@telltale/sdk';

/** Counts ended spans (the demo reports how many it produced). */
export class SpanCounter implements SpanProcessor {
  count = 0;

  onStart(): void {}

  onEnd(): void {
    this.count++;
  }

  forceFlush(): Promise<void> {
    return Promise.resolve();
  }

  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}
