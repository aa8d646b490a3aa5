import { describe, expect, it } from 'vitest';
import { RunFactsCatchUp, type CatchUpState } from './RunFactsCatchUp.js';

describe('RunFactsCatchUp (the background catch-up after start)', () => {
  it('is catching up with done/total until the catch-up resolves, and retries after a failure', async () => {
    let attempts = 0;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const seen: Array<[number, number]> = [];
    const errors: unknown[] = [];
    let finished: CatchUpState | undefined;
    const catchUp = new RunFactsCatchUp(
      {
        catchUp: async ({ onProgress }) => {
          attempts++;
          if (attempts === 1) throw new Error('storage down');
          onProgress?.(0, 3);
          onProgress?.(1, 3);
          await released;
          onProgress?.(3, 3);
          return 3;
        },
      },
      {
        retryDelayMs: 10,
        onProgress: (done, total) => seen.push([done, total]),
        onError: (err) => errors.push(err),
        onFinished: (s) => (finished = s),
      },
    );
    expect(catchUp.state.state).toBe('catching_up');
    catchUp.start();
    const deadline = Date.now() + 5_000;
    while (seen.length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(errors).toHaveLength(1);
    expect(catchUp.state).toMatchObject({ state: 'catching_up', done: 1, total: 3 });
    release();
    while (finished === undefined && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(finished).toEqual({ state: 'caught_up', done: 3, total: 3 });
    expect(catchUp.state).toEqual({ state: 'caught_up', done: 3, total: 3 });
    expect(seen).toEqual([
      [0, 3],
      [1, 3],
      [3, 3],
    ]);
  });

  it('stops retrying once stopped', async () => {
    let attempts = 0;
    const catchUp = new RunFactsCatchUp(
      { catchUp: () => Promise.reject(new Error(`down ${++attempts}`)) },
      { retryDelayMs: 60_000 },
    );
    catchUp.start();
    const deadline = Date.now() + 5_000;
    while (attempts === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
    catchUp.stop();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(attempts).toBe(1);
    expect(catchUp.state).toMatchObject({ state: 'catching_up', lastError: 'down 1' });
  });
});
