import { readlinkSync } from 'node:fs';
import { getPriority } from 'node:os';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { EngineThreadPriority } from './EngineThreadPriority.js';

/** The thread id of the calling thread. */
function ownTid(): number {
  return Number(readlinkSync('/proc/thread-self').split('/').pop());
}

const workers: Worker[] = [];
afterEach(async () => {
  for (const w of workers.splice(0)) await w.terminate();
});

/** A thread of this process that names itself `name` (as the engine names its threads); resolves with its id. */
async function namedThread(name: string): Promise<number> {
  const worker = new Worker(
    `const { parentPort } = require('node:worker_threads');
     const fs = require('node:fs');
     fs.writeFileSync('/proc/thread-self/comm', ${JSON.stringify(name)});
     parentPort.postMessage(Number(fs.readlinkSync('/proc/thread-self').split('/').pop()));
     setInterval(() => {}, 60_000);`,
    { eval: true },
  );
  workers.push(worker);
  return new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
}

describe('EngineThreadPriority', () => {
  it("lowers the engine's threads by name and leaves every other thread alone", async () => {
    const merge = await namedThread('MergeMutate');
    const other = await namedThread('SomethingElse');
    const own = getPriority(ownTid());
    expect(getPriority(merge)).toBe(own);

    const priority = new EngineThreadPriority({ nice: 7, names: new Set(['MergeMutate']) });
    // seven steps below the process's main thread
    expect(priority.target).toBe(Math.min(19, getPriority(process.pid) + 7));
    expect(priority.sweep()).toBe(1);
    expect(getPriority(merge)).toBe(priority.target);
    expect(getPriority(other)).toBe(own);
    expect(getPriority(ownTid())).toBe(own);
    // already lowered: nothing more to do
    expect(priority.sweep()).toBe(0);
    expect(priority.lowered).toBe(1);
  });

  it('finds threads that appear after it started', async () => {
    const priority = new EngineThreadPriority({ nice: 5, names: new Set(['ThreadPool']) });
    priority.start();
    try {
      const late = await namedThread('ThreadPool');
      // the next sweep (every 2 s) finds it
      for (let waited = 0; getPriority(late) !== priority.target && waited < 5_000; waited += 50)
        await new Promise((resolve) => setTimeout(resolve, 50));
      expect(getPriority(late)).toBe(priority.target);
      expect(priority.lowered).toBe(1);
    } finally {
      priority.stop();
    }
  });

  it('says once that it cannot list threads, and then does nothing', () => {
    const reasons: Error[] = [];
    const priority = new EngineThreadPriority({
      nice: 10,
      taskDir: '/nonexistent/task',
      onUnavailable: (err) => reasons.push(err),
    });
    expect(priority.sweep()).toBe(0);
    expect(priority.sweep()).toBe(0);
    expect(reasons).toHaveLength(1);
    expect(reasons[0]!.message).toMatch(/ENOENT/);
  });

  it('refuses a niceness outside 1 to 19', () => {
    expect(() => new EngineThreadPriority({ nice: 0 })).toThrow(/from 1 to 19, got 0/);
    expect(() => new EngineThreadPriority({ nice: 20 })).toThrow(/from 1 to 19, got 20/);
    expect(() => new EngineThreadPriority({ nice: 2.5 })).toThrow(/from 1 to 19, got 2.5/);
  });
});
