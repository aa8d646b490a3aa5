import { describe, expect, it } from 'vitest';
import { RepeatingTask } from './RepeatingTask.js';

async function until(check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** A round that stays in flight until released. */
function gate(): { wait: Promise<void>; open: () => void } {
  let open = (): void => undefined;
  const wait = new Promise<void>((resolve) => (open = resolve));
  return { wait, open };
}

describe('RepeatingTask', () => {
  it('repeats rounds one at a time, and a failed round does not end the loop', async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    let rounds = 0;
    const errors: unknown[] = [];
    const task = new RepeatingTask({
      everyMs: 1,
      onError: (err) => errors.push(err),
      run: async () => {
        rounds += 1;
        inFlight += 1;
        maxInFlight = Math.max(maxInFlight, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 2));
        inFlight -= 1;
        if (rounds === 2) throw new Error('round 2 failed');
      },
    });
    task.start();
    await until(() => rounds >= 5);
    await task.stop();
    expect(maxInFlight).toBe(1);
    expect(errors).toEqual([new Error('round 2 failed')]);
  });

  it('wake during a round runs one more round right after it, not after the pause', async () => {
    const gates = [gate(), gate()];
    let rounds = 0;
    const task = new RepeatingTask({
      everyMs: 60_000,
      run: async () => {
        rounds += 1;
        await gates[rounds - 1]?.wait;
      },
    });
    task.start();
    await until(() => rounds === 1);
    task.wake();
    task.wake();
    gates[0]!.open();
    await until(() => rounds === 2);
    gates[1]!.open();
    await task.stop();
    expect(rounds).toBe(2);
  });

  it('stop waits for the round in flight and starts no other; wake after stop does nothing', async () => {
    const g = gate();
    let rounds = 0;
    let finished = false;
    const task = new RepeatingTask({
      everyMs: 0,
      run: async () => {
        rounds += 1;
        await g.wait;
        finished = true;
      },
    });
    task.start();
    await until(() => rounds === 1);
    const stopped = task.stop();
    g.open();
    await stopped;
    expect(finished).toBe(true);
    task.wake();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(rounds).toBe(1);
  });
});
