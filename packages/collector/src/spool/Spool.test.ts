import { appendFile, mkdtemp, open, readdir, readFile, stat, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Spool, type SpoolBatch } from './Spool.js';
import { SpoolFullError } from './SpoolFullError.js';
import { segmentPath } from './segmentFiles.js';
import { lockSpoolDir } from './spoolLock.js';
import { RECORD_HEADER_BYTES as H } from './recordFormat.js';

const opened: Spool[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
});

async function openSpool(dir: string, opts: { maxBytes?: number; segmentBytes?: number } = {}): Promise<Spool> {
  const spool = await Spool.open({ dir, ...opts });
  opened.push(spool);
  return spool;
}

async function close(spool: Spool): Promise<void> {
  opened.splice(opened.indexOf(spool), 1);
  await spool.close();
}

const text = (b: Uint8Array): string => Buffer.from(b).toString('utf8');

/** A batch's payloads, read now (before its ack, which may delete the segment). */
async function payloadsOf(batch: SpoolBatch): Promise<Buffer[]> {
  const out: Buffer[] = [];
  for await (const p of batch.payloads()) out.push(p);
  return out;
}

async function drainAll(spool: Spool, limits = { maxWeight: 1_000, maxBytes: 1 << 20 }): Promise<string[]> {
  const out: string[] = [];
  for (let batch = await spool.nextBatch(limits); batch !== undefined; batch = await spool.nextBatch(limits)) {
    out.push(...(await payloadsOf(batch)).map(text));
    await spool.ack(batch);
  }
  return out;
}

describe('Spool', () => {
  it('keeps appended records across a reopen, in order, and drains them once', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'spool-'));
    const spool = await openSpool(dir);
    await Promise.all(
      Array.from({ length: 50 }, (_, i) => spool.append([Buffer.from(`rec-${i}`), Buffer.from('|tail')], 10)),
    );
    expect(spool.pendingWeight).toBe(500);
    await close(spool);

    const again = await openSpool(dir);
    expect(again.recovery).toMatchObject({ records: 50, weight: 500, tornBytes: 0 });
    const drained = await drainAll(again);
    expect(drained).toEqual(Array.from({ length: 50 }, (_, i) => `rec-${i}|tail`));
    expect(again.pendingWeight).toBe(0);
    await close(again);
    const third = await openSpool(dir);
    expect(third.recovery.records).toBe(0);
    expect(await third.nextBatch({ maxWeight: 10, maxBytes: 1 << 20 })).toBeUndefined();
  });

  it('writes concurrent appends with one fsync per group (group commit)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'spool-'));
    const spool = await openSpool(dir);
    await Promise.all(Array.from({ length: 200 }, (_, i) => spool.append([Buffer.from(`r${i}`)], 1)));
    const batch = await spool.nextBatch({ maxWeight: 1_000, maxBytes: 1 << 20 });
    expect((await payloadsOf(batch!)).map(text)).toEqual(Array.from({ length: 200 }, (_, i) => `r${i}`));
  });

  it('takes a part that is a whole buffer (moved to its writing thread), and copies a slice of a shared one', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'spool-'));
    const spool = await openSpool(dir);
    const whole = new Uint8Array(Buffer.from('a worker output, its own buffer'));
    const shared = Buffer.from('|a slice of the pool');
    expect(shared.byteLength).toBeLessThan(shared.buffer.byteLength);
    await spool.append([whole, shared], 1);
    // the record is durable as it was given
    const batch = await spool.nextBatch({ maxWeight: 10, maxBytes: 1 << 20 });
    expect((await payloadsOf(batch!)).map(text)).toEqual(['a worker output, its own buffer|a slice of the pool']);
    // the whole buffer went to the writing thread; the pool's stays here, untouched
    expect(whole.byteLength).toBe(0);
    expect(text(shared)).toBe('|a slice of the pool');
  });

  it('sizes batches by weight and bytes, at least one record each', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'spool-'));
    const spool = await openSpool(dir);
    for (const w of [3, 3, 3, 50, 1]) await spool.append([Buffer.from(`w${w}`)], w);
    const sizes: number[][] = [];
    for (
      let b = await spool.nextBatch({ maxWeight: 7, maxBytes: 1 << 20 });
      b !== undefined;
      b = await spool.nextBatch({ maxWeight: 7, maxBytes: 1 << 20 })
    ) {
      sizes.push((await payloadsOf(b)).map((p) => Number(text(p).slice(1))));
      await spool.ack(b);
    }
    expect(sizes).toEqual([[3, 3], [3], [50], [1]]);
  });

  it('refuses an append past the cap without writing any of it, and takes appends again once drained', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'spool-'));
    const spool = await openSpool(dir, { maxBytes: 1_000 });
    await spool.append([Buffer.alloc(600, 1)], 1);
    await expect(spool.append([Buffer.alloc(600, 2)], 1)).rejects.toBeInstanceOf(SpoolFullError);
    const files = await readdir(dir);
    const segment = files.find((f) => f.startsWith('seg-'))!;
    expect((await stat(join(dir, segment))).size).toBe(600 + H);
    // the refused record left nothing behind: one record comes back
    await close(spool);
    const again = await openSpool(dir, { maxBytes: 1_000, segmentBytes: 100 });
    expect(again.recovery.records).toBe(1);
    await drainAll(again);
    await again.append([Buffer.alloc(600, 3)], 1); // a new segment; the drained one is deleted
    await drainAll(again);
    expect(again.usedBytes).toBeLessThanOrEqual(600 + H);
  });

  it('with a cap below the segment size, frees what is stored, and counts nothing stored after a reopen', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'spool-'));
    const limits = { maxBytes: 100_000, segmentBytes: 1 << 20 };
    const spool = await openSpool(dir, limits);
    // ten times the cap, each record stored before the next arrives: none is refused
    for (let i = 0; i < 100; i++) {
      await spool.append([Buffer.alloc(10_000, i)], 1);
      expect(await drainAll(spool)).toHaveLength(1);
    }
    expect(spool.usedBytes).toBeLessThan(limits.maxBytes);
    // stored records left in the segment at a stop do not count against the cap after it
    await spool.append([Buffer.alloc(40_000, 1)], 1);
    await drainAll(spool);
    await close(spool);
    const again = await openSpool(dir, limits);
    expect(again.usedBytes).toBe(0);
    await again.append([Buffer.alloc(90_000, 2)], 1);
    expect(await drainAll(again)).toHaveLength(1);
  });

  it('cuts a torn tail on open and keeps every complete record before it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'spool-'));
    const spool = await openSpool(dir);
    for (let i = 0; i < 5; i++) await spool.append([Buffer.from(`ok-${i}`)], 1);
    await close(spool);
    const seg = segmentPath(dir, 1);
    const size = (await stat(seg)).size;
    // a crash mid-write: half a header and garbage after the last record
    await appendFile(seg, Buffer.from([0x54, 0x54, 0x53, 0x31, 0xff, 0xff]));
    const again = await openSpool(dir);
    expect(again.recovery).toMatchObject({ records: 5, tornBytes: 6 });
    expect((await stat(seg)).size).toBe(size);
    expect(await drainAll(again)).toEqual(['ok-0', 'ok-1', 'ok-2', 'ok-3', 'ok-4']);
  });

  it('stops at a record whose checksum fails (a write that never completed)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'spool-'));
    const spool = await openSpool(dir);
    await spool.append([Buffer.from('first')], 1);
    await spool.append([Buffer.from('second')], 1);
    await close(spool);
    const seg = segmentPath(dir, 1);
    await truncate(seg, (await stat(seg)).size - 2); // the second record lost its last bytes
    const again = await openSpool(dir);
    expect(again.recovery.records).toBe(1);
    expect(await drainAll(again)).toEqual(['first']);
  });

  it('after a crash mid-insert, hands out exactly the same range with the same token', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'spool-'));
    const spool = await openSpool(dir);
    for (let i = 0; i < 4; i++) await spool.append([Buffer.from(`a${i}`)], 1);
    const first = (await spool.nextBatch({ maxWeight: 3, maxBytes: 1 << 20 }))!;
    // the crash: more records arrive, but the batch is never acknowledged
    await spool.append([Buffer.from('late')], 1);
    await close(spool);

    const again = await openSpool(dir);
    const replay = (await again.nextBatch({ maxWeight: 100, maxBytes: 1 << 20 }))!;
    expect(replay.token).toBe(first.token);
    expect((await payloadsOf(replay)).map(text)).toEqual(['a0', 'a1', 'a2']);
    // a retried insert reads the range again
    expect((await payloadsOf(replay)).map(text)).toEqual(['a0', 'a1', 'a2']);
    await again.ack(replay);
    expect(await drainAll(again)).toEqual(['a3', 'late']);
  });

  it('checks every record it reads for a batch: a flipped byte fails the read, naming where', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'spool-'));
    const spool = await openSpool(dir);
    for (let i = 0; i < 3; i++) await spool.append([Buffer.alloc(100, 0x61 + i)], 1);
    const batch = (await spool.nextBatch({ maxWeight: 100, maxBytes: 1 << 20 }))!;
    expect((await payloadsOf(batch)).map((p) => p.length)).toEqual([100, 100, 100]);
    const { seq } = batch.ranges[0]!;
    const file = await open(segmentPath(dir, seq), 'r+');
    await file.write(Buffer.from('Z'), 0, 1, 100 + 2 * H + 50); // inside the second record's payload
    await file.close();
    await expect(payloadsOf(batch)).rejects.toThrow(`spool segment ${seq} is corrupt at byte ${100 + H}`);
  });

  it('rotates segments; a batch runs across them up to its limits, and each drained segment is deleted', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'spool-'));
    const spool = await openSpool(dir, { segmentBytes: 64 });
    for (let i = 0; i < 6; i++) await spool.append([Buffer.alloc(60, i)], 1);
    const segmentFiles = async (): Promise<number> => (await readdir(dir)).filter((f) => f.startsWith('seg-')).length;
    expect(await segmentFiles()).toBe(6);
    const batches: { firsts: number[]; segments: number[] }[] = [];
    const filesAfterAck: number[] = [];
    for (
      let b = await spool.nextBatch({ maxWeight: 4, maxBytes: 1 << 20 });
      b !== undefined;
      b = await spool.nextBatch({ maxWeight: 4, maxBytes: 1 << 20 })
    ) {
      batches.push({ firsts: (await payloadsOf(b)).map((p) => p[0]!), segments: b.ranges.map((r) => r.seq) });
      await spool.ack(b);
      filesAfterAck.push(await segmentFiles());
    }
    expect(batches).toEqual([
      { firsts: [0, 1, 2, 3], segments: [1, 2, 3, 4] },
      { firsts: [4, 5], segments: [5, 6] },
    ]);
    expect(filesAfterAck).toEqual([2, 1]); // the last one is still the active segment
    expect(spool.pendingWeight).toBe(0);
  });

  it('reads a batch into one reused buffer when asked: the same payloads, each valid until the next', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'spool-'));
    const spool = await openSpool(dir, { segmentBytes: 256 });
    // records of growing and shrinking sizes, across segments
    const sizes = [10, 300, 40, 120, 5];
    for (const [i, n] of sizes.entries()) await spool.append([Buffer.alloc(n, i + 1)], 1);
    const batch = (await spool.nextBatch({ maxWeight: 10, maxBytes: 1 << 20 }))!;
    expect(batch.ranges.length).toBeGreaterThan(1);
    const fresh = await payloadsOf(batch);
    const reused: Buffer[] = [];
    const views: Buffer[] = [];
    for await (const p of batch.payloads({ reuse: true })) {
      reused.push(Buffer.from(p)); // a copy: the view is overwritten by the next read
      views.push(p);
    }
    expect(reused).toEqual(fresh);
    expect(reused.map((p) => [p.length, p[0]])).toEqual(sizes.map((n, i) => [n, i + 1]));
    // the 40-byte record was read over the 300-byte one, then the 120- and 5-byte ones over it
    expect(views[2]!.buffer).toBe(views[1]!.buffer);
    expect([views[1]![0], views[2]![0]]).toEqual([5, 5]);
  });

  it('replays a batch that spanned segments whole after a crash, with the same token, whatever the new limits', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'spool-'));
    const spool = await openSpool(dir, { segmentBytes: 64 });
    for (let i = 0; i < 5; i++) await spool.append([Buffer.alloc(60, i)], 1);
    const first = (await spool.nextBatch({ maxWeight: 3, maxBytes: 1 << 20 }))!;
    expect(first.ranges.map((r) => r.seq)).toEqual([1, 2, 3]);
    await close(spool); // crashed before the ack

    const again = await openSpool(dir, { segmentBytes: 64 });
    const replay = (await again.nextBatch({ maxWeight: 1, maxBytes: 1 << 20 }))!;
    expect(replay.token).toBe(first.token);
    expect(replay.ranges).toEqual(first.ranges);
    expect((await payloadsOf(replay)).map((p) => p[0])).toEqual([0, 1, 2]);
    await again.ack(replay);
    expect((await readdir(dir)).filter((f) => f.startsWith('seg-'))).toEqual([
      'seg-000000000004.log',
      'seg-000000000005.log',
    ]);
    const rest = (await again.nextBatch({ maxWeight: 100, maxBytes: 1 << 20 }))!;
    expect((await payloadsOf(rest)).map((p) => p[0])).toEqual([3, 4]);
  });

  it('reads a checkpoint written before batches could span segments: the pending range keeps its token', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'spool-'));
    const spool = await openSpool(dir);
    for (let i = 0; i < 4; i++) await spool.append([Buffer.from(`a${i}`)], 1);
    const first = (await spool.nextBatch({ maxWeight: 2, maxBytes: 1 << 20 }))!;
    await close(spool);
    const checkpoint = JSON.parse(await readFile(join(dir, 'drain.json'), 'utf8')) as Record<string, number>;
    expect(Object.keys(checkpoint).sort()).toEqual(['offset', 'pendingTo', 'seq']); // the old form, unchanged within a segment
    const again = await openSpool(dir);
    const replay = (await again.nextBatch({ maxWeight: 100, maxBytes: 1 << 20 }))!;
    expect(replay.token).toBe(first.token);
    expect(replay.token).toMatch(new RegExp(`-1-0-${first.ranges[0]!.to}$`));
    expect((await payloadsOf(replay)).map(text)).toEqual(['a0', 'a1']);
  });

  it('refuses a second process-local open of a directory another live process holds', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'spool-'));
    await writeFile(join(dir, 'spool.lock'), String(process.ppid)); // a live process that is not us
    await expect(Spool.open({ dir })).rejects.toThrow(/in use by process/);
    await writeFile(join(dir, 'spool.lock'), '999999999'); // a dead one: taken over
    await openSpool(dir);
  });

  it('opens with a lock taken beforehand, and gives it up on close or when it cannot open', async () => {
    const dir = join(await mkdtemp(join(tmpdir(), 'spool-')), 'nested'); // the lock creates the directory
    const lockFile = join(dir, 'spool.lock');
    const lock = await lockSpoolDir(dir);
    expect(await readFile(lockFile, 'utf8')).toBe(String(process.pid));
    await expect(Spool.open({ dir: join(dir, 'other'), lock })).rejects.toThrow(/lock is for .*nested, not/);
    const spool = await Spool.open({ dir, lock });
    expect(await readFile(lockFile, 'utf8')).toBe(String(process.pid));
    await spool.close();
    await expect(stat(lockFile)).rejects.toMatchObject({ code: 'ENOENT' });

    // a spool that fails to open (its drain checkpoint is not JSON) releases the lock it was given
    await writeFile(join(dir, 'drain.json'), '{');
    const again = await lockSpoolDir(dir);
    await expect(Spool.open({ dir, lock: again })).rejects.toThrow();
    await expect(stat(lockFile)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
