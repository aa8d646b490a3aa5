import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, truncate, unlink, writeFile, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { readDrainCheckpoint, writeDrainCheckpoint, type DrainCheckpoint } from './drainCheckpoint.js';
import { encodeRecordHeader, payloadChecksumHolds, RECORD_HEADER_BYTES, decodeRecordHeader } from './recordFormat.js';
import { fsyncDir, listSegments, scanSegment, segmentPath, writeAll, type RecordRef } from './segmentFiles.js';
import { lockSpoolDir } from './spoolLock.js';
import { SpoolFullError } from './SpoolFullError.js';

export interface SpoolOptions {
  dir: string;
  /** Cap on the bytes of all segment files; an append past it fails with SpoolFullError (default 1 GiB). */
  maxBytes?: number;
  /** A segment is sealed and a new one started once it reaches this size (default 16 MiB: space is freed a segment at a time). */
  segmentBytes?: number;
}

/** Records handed to the drainer: one contiguous range of one segment. */
export interface SpoolBatch {
  /** Stable for this range across restarts: use it as the insert's deduplication token. */
  readonly token: string;
  /**
   * Reads the batch's payloads one record at a time, each checked against its
   * checksum (a corrupt record throws): memory stays at one record, however
   * large the batch. Each call reads the range again (a retried insert).
   */
  readonly payloads: () => AsyncIterable<Buffer>;
  readonly weight: number;
  readonly seq: number;
  readonly from: number;
  readonly to: number;
}

/** What `open` found on disk. */
export interface SpoolRecovery {
  segments: number;
  records: number;
  weight: number;
  /** Bytes cut from segment tails: writes never acknowledged (torn by a crash, or failed). */
  tornBytes: number;
}

interface Segment {
  seq: number;
  size: number;
  records: RecordRef[];
  sealed: boolean;
}

interface Append {
  header: Buffer;
  parts: readonly Uint8Array[];
  bytes: number;
  weight: number;
  resolve: () => void;
  reject: (err: unknown) => void;
}

/**
 * A durable, append-only spool of records in segment files.
 *
 * `append` resolves only once the record is written and fdatasync'd; appends
 * arriving while a write is in flight are written together by the next one
 * (group commit), so one fsync serves every concurrent request. The drainer
 * reads records in order with `nextBatch`, stores them, then calls `ack`;
 * fully drained sealed segments are deleted. The checkpoint records the batch
 * in flight before it is handed out, so after a crash the same range comes
 * back with the same token (see drainCheckpoint.ts).
 */
export class Spool {
  readonly id: string;
  readonly recovery: SpoolRecovery;
  private readonly dir: string;
  private readonly maxBytes: number;
  private readonly segmentBytes: number;
  private readonly unlock: () => Promise<void>;
  private readonly segments: Segment[];
  private drain: DrainCheckpoint;
  private nextSeq: number;
  private active: { segment: Segment; handle: FileHandle } | undefined;
  private queue: Append[] = [];
  private writing: Promise<void> | undefined;
  private reservedBytes = 0;
  private diskBytes: number;
  private undrainedWeight: number;
  private acked = 0;
  private dataWaiters: (() => void)[] = [];
  private closed = false;

  private constructor(init: {
    id: string;
    dir: string;
    opts: SpoolOptions;
    unlock: () => Promise<void>;
    segments: Segment[];
    drain: DrainCheckpoint;
    recovery: SpoolRecovery;
  }) {
    this.id = init.id;
    this.dir = init.dir;
    this.maxBytes = init.opts.maxBytes ?? 1024 ** 3;
    this.segmentBytes = init.opts.segmentBytes ?? 16 * 1024 ** 2;
    this.unlock = init.unlock;
    this.segments = init.segments;
    this.drain = init.drain;
    this.recovery = init.recovery;
    this.nextSeq = Math.max(init.drain.seq, ...init.segments.map((s) => s.seq)) + 1;
    this.diskBytes = init.segments.reduce((n, s) => n + s.size, 0);
    this.undrainedWeight = init.recovery.weight;
  }

  /** Opens (creating if needed) and recovers a spool directory; one process per directory. */
  static async open(opts: SpoolOptions): Promise<Spool> {
    const dir = opts.dir;
    await mkdir(dir, { recursive: true });
    const unlock = await lockSpoolDir(dir);
    try {
      const id = await spoolId(dir);
      const seqs = await listSegments(dir);
      let drain = (await readDrainCheckpoint(dir)) ?? { seq: seqs[0] ?? 0, offset: 0 };
      const segments: Segment[] = [];
      const recovery: SpoolRecovery = { segments: 0, records: 0, weight: 0, tornBytes: 0 };
      for (const seq of seqs) {
        const path = segmentPath(dir, seq);
        if (seq < drain.seq) {
          await unlink(path); // drained before the crash; its deletion did not happen
          continue;
        }
        const scan = await scanSegment(path);
        if (scan.validBytes < scan.fileBytes) {
          await truncate(path, scan.validBytes);
          recovery.tornBytes += scan.fileBytes - scan.validBytes;
        }
        segments.push({ seq, size: scan.validBytes, records: scan.records, sealed: true });
      }
      drain = validDrain(drain, segments);
      for (const s of segments) {
        const undrained = s.seq === drain.seq ? s.records.filter((r) => r.offset >= drain.offset) : s.records;
        recovery.segments++;
        recovery.records += undrained.length;
        recovery.weight += undrained.reduce((n, r) => n + r.weight, 0);
      }
      await fsyncDir(dir);
      return new Spool({ id, dir, opts, unlock, segments, drain, recovery });
    } catch (err) {
      await unlock();
      throw err;
    }
  }

  /** Bytes on disk plus bytes accepted but not yet written. */
  get usedBytes(): number {
    return this.diskBytes + this.reservedBytes;
  }

  /** The size cap. */
  get capacityBytes(): number {
    return this.maxBytes;
  }

  /** Bytes an append may still take before the cap. */
  get freeBytes(): number {
    return Math.max(0, this.maxBytes - this.usedBytes);
  }

  /** The summed weight (spans) of records not yet acknowledged by the drainer. */
  get pendingWeight(): number {
    return this.undrainedWeight;
  }

  /** The weight acknowledged by the drainer since open: it only grows. */
  get ackedWeight(): number {
    return this.acked;
  }

  /**
   * Appends one record made of `parts` (written back to back, checksummed as
   * one). Resolves once it is durable; rejects with SpoolFullError, without
   * writing anything, when it would pass the cap, or with the I/O error.
   */
  append(parts: readonly Uint8Array[], weight: number): Promise<void> {
    if (this.closed) return Promise.reject(new Error('spool is closed'));
    let header: Buffer;
    try {
      header = encodeRecordHeader(parts, weight);
    } catch (err) {
      return Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
    const bytes = header.length + parts.reduce((n, p) => n + p.byteLength, 0);
    if (this.usedBytes + bytes > this.maxBytes) return Promise.reject(new SpoolFullError(this.maxBytes));
    this.reservedBytes += bytes;
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ header, parts, bytes, weight, resolve, reject });
      this.kickWriter();
    });
  }

  /** One writer at a time; appends queued while it writes go in its next group. */
  private kickWriter(): void {
    this.writing ??= this.writeQueued().finally(() => {
      this.writing = undefined;
      if (this.queue.length > 0) this.kickWriter();
    });
  }

  /** Resolves when a record is appended, or after `timeoutMs`. */
  waitForData(timeoutMs: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, timeoutMs).unref();
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.dataWaiters.push(done);
    });
  }

  /**
   * The next records to store, at most `maxWeight` weight and `maxBytes`
   * bytes (at least one record), or undefined when everything is drained.
   * The range is checkpointed before it is returned.
   */
  async nextBatch(limits: { maxWeight: number; maxBytes: number }): Promise<SpoolBatch | undefined> {
    for (;;) {
      const segment = this.segments[0];
      if (segment === undefined) return undefined;
      if (segment.seq !== this.drain.seq) this.drain = { seq: segment.seq, offset: 0 };
      const { offset, pendingTo } = this.drain;
      let i = segment.records.findIndex((r) => r.offset >= offset);
      if (i < 0) i = segment.records.length;
      let to = offset;
      let weight = 0;
      const end = pendingTo ?? Infinity;
      for (let j = i; j < segment.records.length; j++) {
        const r = segment.records[j]!;
        if (r.offset >= end) break;
        if (pendingTo === undefined && to > offset && (weight + r.weight > limits.maxWeight || to - offset + r.bytes > limits.maxBytes)) break;
        weight += r.weight;
        to = r.offset + r.bytes;
      }
      if (to === offset) {
        if (!segment.sealed) return undefined;
        await this.dropSegment(segment);
        continue;
      }
      if (pendingTo === undefined) {
        this.drain = { seq: segment.seq, offset, pendingTo: to };
        await writeDrainCheckpoint(this.dir, this.drain);
      }
      const seq = segment.seq;
      const payloads = (): AsyncIterable<Buffer> => this.readPayloads(seq, offset, to);
      return { token: `${this.id}-${seq}-${offset}-${to}`, payloads, weight, seq, from: offset, to };
    }
  }

  /** Marks a batch from `nextBatch` as stored. */
  async ack(batch: SpoolBatch): Promise<void> {
    if (this.drain.seq !== batch.seq || this.drain.offset !== batch.from) throw new Error(`spool ack out of order (${batch.token})`);
    this.drain = { seq: batch.seq, offset: batch.to };
    await writeDrainCheckpoint(this.dir, this.drain);
    this.undrainedWeight -= batch.weight;
    this.acked += batch.weight;
    const segment = this.segments[0];
    if (segment !== undefined && segment.sealed && segment.seq === batch.seq && batch.to >= segment.size) {
      await this.dropSegment(segment);
    }
  }

  /** Writes what was accepted, then releases the directory. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    while (this.writing !== undefined) await this.writing;
    if (this.active !== undefined) await this.active.handle.close();
    this.active = undefined;
    for (const wake of this.dataWaiters.splice(0)) wake();
    await this.unlock();
  }

  private async writeQueued(): Promise<void> {
    while (this.queue.length > 0) {
      const group = this.queue;
      this.queue = [];
      const bytes = group.reduce((n, a) => n + a.bytes, 0);
      try {
        const { segment, handle } = await this.activeSegment();
        const start = segment.size;
        try {
          await writeAll(
            handle,
            group.flatMap((a) => [a.header, ...a.parts]),
            start,
          );
          await handle.datasync();
        } catch (err) {
          await this.abandonActive(start);
          throw err;
        }
        let offset = start;
        for (const a of group) {
          segment.records.push({ offset, bytes: a.bytes, weight: a.weight });
          offset += a.bytes;
          this.undrainedWeight += a.weight;
        }
        segment.size = offset;
        this.diskBytes += bytes;
        this.reservedBytes -= bytes;
        for (const a of group) a.resolve();
        for (const wake of this.dataWaiters.splice(0)) wake();
      } catch (err) {
        this.reservedBytes -= bytes;
        for (const a of group) a.reject(err);
      }
    }
  }

  private async activeSegment(): Promise<{ segment: Segment; handle: FileHandle }> {
    if (this.active !== undefined && this.active.segment.size < this.segmentBytes) return this.active;
    if (this.active !== undefined) {
      this.active.segment.sealed = true;
      await this.active.handle.close();
      this.active = undefined;
    }
    const segment: Segment = { seq: this.nextSeq++, size: 0, records: [], sealed: false };
    const handle = await open(segmentPath(this.dir, segment.seq), 'wx');
    await fsyncDir(this.dir);
    this.segments.push(segment);
    this.active = { segment, handle };
    return this.active;
  }

  /** After a failed write: cut the partial bytes if possible and seal the segment; the next write starts a new one. */
  private async abandonActive(validBytes: number): Promise<void> {
    const active = this.active;
    if (active === undefined) return;
    this.active = undefined;
    active.segment.sealed = true;
    await active.handle.truncate(validBytes).catch(() => undefined); // if this fails, the next open cuts the tail
    await active.handle.close().catch(() => undefined);
  }

  private async dropSegment(segment: Segment): Promise<void> {
    this.segments.shift();
    this.diskBytes -= segment.size;
    await unlink(segmentPath(this.dir, segment.seq)).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT') throw err;
    });
    this.drain = { seq: this.segments[0]?.seq ?? this.nextSeq, offset: 0 };
  }

  private async *readPayloads(seq: number, from: number, to: number): AsyncGenerator<Buffer> {
    const handle = await open(segmentPath(this.dir, seq), 'r');
    const readExactly = async (bytes: number, at: number): Promise<Buffer> => {
      const buf = Buffer.allocUnsafe(bytes);
      for (let read = 0; read < bytes; ) {
        const { bytesRead } = await handle.read(buf, read, bytes - read, at + read);
        if (bytesRead === 0) throw new Error(`spool segment ${seq} ends before byte ${to}`);
        read += bytesRead;
      }
      return buf;
    };
    try {
      for (let at = from; at < to; ) {
        const header = decodeRecordHeader(await readExactly(RECORD_HEADER_BYTES, at), 0);
        const payload = header === undefined || at + RECORD_HEADER_BYTES + header.payloadBytes > to ? undefined : await readExactly(header.payloadBytes, at + RECORD_HEADER_BYTES);
        if (header === undefined || payload === undefined || !payloadChecksumHolds(payload, header)) {
          throw new Error(`spool segment ${seq} is corrupt at byte ${at}`);
        }
        yield payload;
        at += RECORD_HEADER_BYTES + header.payloadBytes;
      }
    } finally {
      await handle.close();
    }
  }
}

/** A random id per spool directory, so deduplication tokens of two spools never collide. */
async function spoolId(dir: string): Promise<string> {
  const path = join(dir, 'spool-id');
  try {
    const id = (await readFile(path, 'utf8')).trim();
    if (/^[0-9a-f]{16}$/.test(id)) return id;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const id = randomBytes(8).toString('hex');
  await writeFile(path, id, { flush: true });
  return id;
}

/** The checkpoint must point at a record boundary of a present segment; otherwise drain from the oldest segment. */
function validDrain(drain: DrainCheckpoint, segments: readonly Segment[]): DrainCheckpoint {
  const segment = segments.find((s) => s.seq === drain.seq);
  if (segment === undefined) return { seq: segments[0]?.seq ?? drain.seq, offset: 0 };
  const boundary = (at: number): boolean => at === segment.size || segment.records.some((r) => r.offset === at);
  if (!boundary(drain.offset)) throw new Error(`spool checkpoint points inside a record (segment ${drain.seq}, byte ${drain.offset})`);
  if (drain.pendingTo !== undefined && !boundary(drain.pendingTo)) return { seq: drain.seq, offset: drain.offset };
  return drain;
}
