import { fstatSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RECORD_HEADER_BYTES } from './recordFormat.js';
import { Spool } from './Spool.js';
import { SpoolIoThread } from './SpoolIoThread.js';

interface Commit {
  /** Event number when the write + fdatasync began and when it returned. */
  startedAt: number;
  endedAt: number;
  /** The file's size once it returned: the bytes it made durable. */
  bytes: number;
}

type WriteDurably = SpoolIoThread['writeDurably'];
const realWriteDurably = Object.getOwnPropertyDescriptor(SpoolIoThread.prototype, 'writeDurably')!
  .value as WriteDurably;

/**
 * Watches every write + fdatasync the spool's writing thread makes (the real
 * call still runs, made slower so appends pile up behind it as under load);
 * events are numbered so an append's acknowledgement can be placed against them.
 */
function watchCommits(delayMs: number, failAt?: number): { commits: Commit[]; event: () => number } {
  let events = 0;
  let calls = 0;
  const commits: Commit[] = [];
  SpoolIoThread.prototype.writeDurably = async function writeDurably(this: SpoolIoThread, fd, parts, position) {
    const startedAt = ++events;
    await new Promise((r) => setTimeout(r, delayMs));
    await realWriteDurably.call(this, fd, parts, position);
    if (++calls === failAt) throw Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' });
    commits.push({ startedAt, endedAt: ++events, bytes: fstatSync(fd).size });
  };
  return { commits, event: () => ++events };
}

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  SpoolIoThread.prototype.writeDurably = realWriteDurably;
  for (const c of cleanup.splice(0).reverse()) await c();
});

describe('Spool group commit', () => {
  it('makes N concurrent appends durable with far fewer fsyncs than N, acknowledging none before its bytes are synced', async () => {
    const watch = watchCommits(15);
    const spool = await Spool.open({ dir: await mkdtemp(join(tmpdir(), 'spool-gc-')) });
    cleanup.push(() => spool.close());

    const n = 120;
    const payloads = Array.from({ length: n }, (_, i) => Buffer.from(`record-${i}-`.padEnd(40 + (i % 7) * 13, 'x')));
    // what the file holds once record i is in it: records are laid down in the order they were appended
    const endOf: number[] = [];
    let end = 0;
    for (const p of payloads) endOf.push((end += RECORD_HEADER_BYTES + p.length));

    const acks: { calledAt: number; ackedAt: number }[] = [];
    const appends: Promise<void>[] = [];
    // three waves: the first alone, the second while the first syncs, the third while the second does
    for (const [from, to] of [
      [0, 1],
      [1, 60],
      [60, n],
    ] as const) {
      for (let i = from; i < to; i++) {
        const calledAt = watch.event();
        appends.push(spool.append([payloads[i]!], 1).then(() => void (acks[i] = { calledAt, ackedAt: watch.event() })));
      }
      await new Promise((r) => setTimeout(r, 5));
    }
    await Promise.all(appends);

    expect(watch.commits.length).toBeGreaterThanOrEqual(1);
    expect(watch.commits.length).toBeLessThan(n / 10);
    for (let i = 0; i < n; i++) {
      const { calledAt, ackedAt } = acks[i]!;
      // some write + fdatasync that began after the append was made, and covered its bytes, returned before the acknowledgement
      const covering = watch.commits.find((s) => s.startedAt > calledAt && s.endedAt < ackedAt && s.bytes >= endOf[i]!);
      expect(covering, `record ${i} acknowledged without an fsync covering it`).toBeDefined();
    }
    expect(spool.pendingRecords).toBe(n);
  });

  it('fails every append of a group whose fsync fails, and acknowledges none of them', async () => {
    watchCommits(10, 2);
    const dir = await mkdtemp(join(tmpdir(), 'spool-gc-'));
    const spool = await Spool.open({ dir });
    await spool.append([Buffer.from('first')], 1);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) => spool.append([Buffer.from(`doomed-${i}`)], 1)),
    );
    expect(outcomes.map((o) => o.status)).toEqual(Array.from({ length: 20 }, () => 'rejected'));
    expect(spool.pendingRecords).toBe(1);
    await spool.append([Buffer.from('after')], 1);
    await spool.close();

    const again = await Spool.open({ dir });
    cleanup.push(() => again.close());
    const batch = await again.nextBatch({ maxWeight: 100, maxBytes: 1 << 20 });
    const read: string[] = [];
    for await (const p of batch!.payloads()) read.push(p.toString());
    expect(read).toEqual(['first', 'after']);
  });
});
