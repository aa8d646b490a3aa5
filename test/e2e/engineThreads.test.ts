import { readdirSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { TelltaleProcess } from './harness/TelltaleProcess.js';

/** Names the embedded engine gives its merge threads and the parallel threads of its inserts and queries (apps/server ENGINE_THREAD_NAMES). */
const ENGINE_THREADS = new Set(['MergeMutate', 'ThreadPool']);

interface ThreadInfo {
  tid: number;
  name: string;
  nice: number;
}

/** Every thread of `pid` with its name and niceness, from /proc (threads that end while read are skipped). */
function threadsOf(pid: number): ThreadInfo[] {
  const out: ThreadInfo[] = [];
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const name = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'latin1').trimEnd();
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'latin1');
      // the fields after the name, which may hold spaces: state is field 3, nice field 19
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.push({ tid: Number(tid), name, nice: Number(fields[19 - 3]) });
    } catch {
      // ended since the listing
    }
  }
  return out;
}

/** A request of one span, so the server inserts (and its insert threads run). */
async function sendSpan(url: string): Promise<void> {
  const now = BigInt(Date.now()) * 1_000_000n;
  const res = await fetch(`${url}/v1/traces`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      resourceSpans: [
        {
          resource: { attributes: [{ key: 'service.name', value: { stringValue: 'engine-threads' } }] },
          scopeSpans: [
            {
              spans: [
                {
                  traceId: '5b8efff798038103d269b633813fc60d',
                  spanId: '00000000000000b1',
                  name: 'run',
                  startTimeUnixNano: String(now),
                  endTimeUnixNano: String(now + 1_000_000n),
                },
              ],
            },
          ],
        },
      ],
    }),
    signal: AbortSignal.timeout(10_000),
  });
  expect(res.status).toBe(200);
  await res.arrayBuffer();
}

const running: TelltaleProcess[] = [];
afterEach(async () => {
  for (const p of running.splice(0)) await p.stop();
});

describe("the embedded engine's threads yield the CPU to the collector's", () => {
  it("runs the engine's merge and parallel threads 10 steps nicer than the rest of the server", async () => {
    const server = await TelltaleProcess.start();
    running.push(server);
    await sendSpan(server.url);
    const own = threadsOf(server.pid).find((t) => t.tid === server.pid)!.nice;

    // lowered at start and then every 2 s, as the engine's pools grow
    let threads = threadsOf(server.pid);
    for (let waited = 0; waited < 10_000; waited += 200) {
      threads = threadsOf(server.pid);
      const engine = threads.filter((t) => ENGINE_THREADS.has(t.name));
      if (engine.some((t) => t.name === 'MergeMutate') && engine.every((t) => t.nice === Math.min(19, own + 10))) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const engine = threads.filter((t) => ENGINE_THREADS.has(t.name));
    expect(new Set(engine.map((t) => t.name))).toEqual(ENGINE_THREADS);
    for (const t of engine)
      expect({ name: t.name, nice: t.nice }).toEqual({ name: t.name, nice: Math.min(19, own + 10) });
    // the main thread and Node's threads (ingest and spool workers among them) keep the process's
    const main = threads.find((t) => t.tid === server.pid)!;
    const node = threads.filter((t) => t.name === main.name);
    expect(node.length).toBeGreaterThanOrEqual(3);
    for (const t of node) expect(t.nice).toBe(own);
  });

  it('leaves every thread at the process niceness with --engine-nice 0', async () => {
    const server = await TelltaleProcess.start({ args: ['--engine-nice', '0'] });
    running.push(server);
    await sendSpan(server.url);
    await new Promise((resolve) => setTimeout(resolve, 2_500)); // past one sweep interval
    const threads = threadsOf(server.pid);
    const own = threads.find((t) => t.tid === server.pid)!.nice;
    const engine = threads.filter((t) => ENGINE_THREADS.has(t.name));
    expect(engine.length).toBeGreaterThan(0);
    for (const t of engine) expect({ name: t.name, nice: t.nice }).toEqual({ name: t.name, nice: own });
  });
});
