import { mkdtemp, open, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RECORD_HEADER_BYTES } from './recordFormat.js';
import { Spool } from './Spool.js';

interface Sync {
  /** Event number when the fdatasync began and when it returned. */
  startedAt: number;
  endedAt: number;
  /** The file's size when it began: the bytes it makes durable. */
  bytes: number;
}

/**
 * Watches every FileHandle.datasync of the process (the real call still runs,
 * made slower so requests pile up behind it as under load); events are
 * numbered so an append's acknowledgement can be placed against the syncs.
 */
async function watchSyncs(delayMs: number): Promise<{ syncs: Sync[]; event: () => number; restore: () => void }> {
  const probe = await open(join(await mkdtemp(join(tmpdir(), 'probe-')), 'f'), 'w');
  const proto = Object.getPrototypeOf(probe) as FileHandle;
  await probe.close();
  const original = Object.getOwnPropertyDescriptor(proto, 'datasync')!;
  const realDatasync = original.value as (this: FileHandle) => Promise<void>;
  let events = 0;
  const syncs: Sync[] = [];
  Object.defineProperty(proto, 'datasync', {
    configurable: true,
    writable: true,
    value: async function datasync(this: FileHandle): Promise<void> {
      const startedAt = ++events;
      const { size } = await this.stat();
      await new Promise((r) => setTimeout(r, delayMs));
      await realDatasync.call(this);
      syncs.push({ startedAt, endedAt: ++events, bytes: size });
    },
  });
  return { syncs, event: () => ++events, restore: () => Object.defineProperty(proto, 'datasync', original) };
}

let cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
});

describe('Spool group commit', () => {
  it('makes N concurrent appends durable with far fewer fsyncs than N, acknowledging none before its bytes are synced', async () => {
    const watch = await watchSyncs(15);
    cleanup.push(watch.restore);
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

    expect(watch.syncs.length).toBeGreaterThanOrEqual(1);
    expect(watch.syncs.length).toBeLessThan(n / 10);
    for (let i = 0; i < n; i++) {
      const { calledAt, ackedAt } = acks[i]!;
      // some fsync that began after the append was made, and covered its bytes, returned before the acknowledgement
      const covering = watch.syncs.find((s) => s.startedAt > calledAt && s.endedAt < ackedAt && s.bytes >= endOf[i]!);
      expect(covering, `record ${i} acknowledged without an fsync covering it`).toBeDefined();
    }
    expect(spool.pendingRecords).toBe(n);
  });

  it('fails every append of a group whose fsync fails, and acknowledges none of them', async () => {
    const probe = await open(join(await mkdtemp(join(tmpdir(), 'probe-')), 'f'), 'w');
    const proto = Object.getPrototypeOf(probe) as FileHandle;
    await probe.close();
    const original = Object.getOwnPropertyDescriptor(proto, 'datasync')!;
    let failNext = false;
    const realDatasync = original.value as (this: FileHandle) => Promise<void>;
    Object.defineProperty(proto, 'datasync', {
      configurable: true,
      writable: true,
      value: async function datasync(this: FileHandle): Promise<void> {
        await new Promise((r) => setTimeout(r, 10));
        if (failNext) {
          failNext = false;
          throw Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' });
        }
        await realDatasync.call(this);
      },
    });
    cleanup.push(() => void Object.defineProperty(proto, 'datasync', original));
    const dir = await mkdtemp(join(tmpdir(), 'spool-gc-'));
    const spool = await Spool.open({ dir });
    await spool.append([Buffer.from('first')], 1);
    failNext = true;
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
