import { setImmediate as yieldToLoop } from 'node:timers/promises';

/**
 * Simulated time for one run: `sleep` advances the clock instead of waiting,
 * so span durations look real (seconds for a model call) while the demo
 * runs at CPU speed. It still yields to the event loop, so runs interleave.
 */
export class VirtualClock {
  constructor(private epochMs: number) {}

  readonly now = (): number => this.epochMs;

  advance(ms: number): void {
    this.epochMs += Math.max(0, ms);
  }

  async sleep(ms: number): Promise<void> {
    this.advance(ms);
    await yieldToLoop();
  }
}
