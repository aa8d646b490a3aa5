import { randomBytes } from 'node:crypto';
import { open, readFile, truncate, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  pendingEnd,
  readDrainCheckpoint,
  writeDrainCheckpoint,
  type DrainCheckpoint,
  type SpoolPosition,
} from './drainCheckpoint.js';
import {
  encodeRecordHeader,
  payloadChecksumHolds,
  RECORD_HEADER_BYTES,
  decodeRecordHeader,
  UNVERSIONED_RECORD_VERSION,
} from './recordFormat.js';
import { fsyncDir, listSegments, scanSegment, segmentPath, type RecordRef } from './segmentFiles.js';
import { SpoolIoThread } from './SpoolIoThread.js';
import { lockSpoolDir, type SpoolDirLock } from './spoolLock.js';
import { SpoolFullError } from './SpoolFullError.js';
import { TelltaleError, TelltaleErrorCode } from '@telltale/semconv';

/** The spool's size cap by default: past it, exports are refused (503). */
export const DEFAULT_SPOOL_MAX_BYTES = 1024 ** 3;
/** Segment size by default: drained space is freed a segment at a time. */
export const DEFAULT_SPOOL_SEGMENT_BYTES = 16 * 1024 ** 2;

export interface SpoolOptions {
  dir: string;
  /** Cap on the bytes of all segment files; an append past it fails with SpoolFullError (default 1 GiB). */
  maxBytes?: number;
  /** A segment is sealed and a new one started once it reaches this size (default 16 MiB: space is freed a segment at a time). */
  segmentBytes?: number;
  /**
   * The payload format of the records this process appends, kept in each
   * record's header (the collector: the spans Arrow schema version). Default 1.
   */
  version?: number;
  /**
   * The directory's lock, taken beforehand (lockSpoolDir on `dir`): the spool
   * releases it on close, or when it fails to open (a lock for another
   * directory is refused and left as it is). Without it, open takes it.
   */
  lock?: SpoolDirLock;
}

/** Bytes `from` to `to` of segment `seq`: whole records. */
export interface SpoolRange {
  readonly seq: number;
  readonly from: number;
  readonly to: number;
}

/**
 * Records handed to the drainer: one contiguous run of records, which may
 * span segments (a batch is sized by its limits, not by the segment size).
 */
export interface SpoolBatch {
  /** Stable for this range across restarts: use it as the insert's deduplication token. */
  readonly token: string;
  /**
   * Reads the batch's payloads one record at a time, each checked against its
   * checksum (a corrupt record throws): memory stays at one record, however
   * large the batch. Each call reads the range again (a retried insert).
   * With `reuse`, every payload is read into one buffer the call reuses
   * (grown to the largest record), so reading allocates nothing per record:
   * a payload is then valid only until the next one is taken, and a
   * consumer that keeps one longer copies it.
   */
  readonly payloads: (opts?: { reuse?: boolean }) => AsyncIterable<Buffer>;
  readonly weight: number;
  /** How many records it holds. */
  readonly records: number;
  /** The payload format of every record in it: a batch never mixes versions. */
  readonly version: number;
  /** The batch's bytes in each segment it touches, oldest first. */
  readonly ranges: readonly SpoolRange[];
}

/** What `open` found on disk. */
export interface SpoolRecovery {
  segments: number;
  records: number;
  weight: number;
  /** Bytes cut from segment tails: writes never acknowledged (torn by a crash, or failed). */
  tornBytes: number;
  /** The records not yet drained, by payload version (oldest version first). */
  versions: { version: number; records: number; weight: number }[];
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
  version: number;
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
  /** The spool directory. */
  readonly dir: string;
  /** The payload version of records appended by this process. */
  readonly version: number;
  private readonly maxBytes: number;
  private readonly segmentBytes: number;
  private readonly lock: SpoolDirLock;
  private readonly segments: Segment[];
  private drain: DrainCheckpoint;
  private nextSeq: number;
  private active: { segment: Segment; fd: number } | undefined;
  /** Segment writes, fsyncs and creations run on a thread of their own (see SpoolIoThread). */
  private readonly io = new SpoolIoThread();
  private queue: Append[] = [];
  private writing: Promise<void> | undefined;
  private reservedBytes = 0;
  private diskBytes: number;
  private undrainedWeight: number;
  private undrainedRecords: number;
  private readonly openedAtMs = Date.now();
  private acked = 0;
  private dataWaiters: (() => void)[] = [];
  private closed = false;

  private constructor(init: {
    id: string;
    dir: string;
    opts: SpoolOptions;
    lock: SpoolDirLock;
    segments: Segment[];
    drain: DrainCheckpoint;
    recovery: SpoolRecovery;
  }) {
    this.id = init.id;
    this.dir = init.dir;
    this.maxBytes = init.opts.maxBytes ?? DEFAULT_SPOOL_MAX_BYTES;
    this.segmentBytes = init.opts.segmentBytes ?? DEFAULT_SPOOL_SEGMENT_BYTES;
    this.version = init.opts.version ?? UNVERSIONED_RECORD_VERSION;
    this.lock = init.lock;
    this.segments = init.segments;
    this.drain = init.drain;
    this.recovery = init.recovery;
    this.nextSeq = Math.max(init.drain.seq, ...init.segments.map((s) => s.seq)) + 1;
    this.diskBytes = init.segments.reduce((n, s) => n + s.size, 0);
    this.undrainedWeight = init.recovery.weight;
    this.undrainedRecords = init.recovery.records;
  }

  /** Opens (creating if needed) and recovers a spool directory; one process per directory. */
  static async open(opts: SpoolOptions): Promise<Spool> {
    const dir = opts.dir;
    if (opts.lock !== undefined && opts.lock.dir !== dir)
      throw new TypeError(`the spool directory's lock is for ${opts.lock.dir}, not ${dir}`);
    const lock = opts.lock ?? (await lockSpoolDir(dir));
    try {
      const id = await spoolId(dir);
      const seqs = await listSegments(dir);
      let drain = (await readDrainCheckpoint(dir)) ?? { seq: seqs[0] ?? 0, offset: 0 };
      const segments: Segment[] = [];
      const recovery: SpoolRecovery = { segments: 0, records: 0, weight: 0, tornBytes: 0, versions: [] };
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
        for (const r of undrained) {
          let entry = recovery.versions.find((v) => v.version === r.version);
          if (entry === undefined) recovery.versions.push((entry = { version: r.version, records: 0, weight: 0 }));
          entry.records++;
          entry.weight += r.weight;
        }
      }
      recovery.versions.sort((a, b) => a.version - b.version);
      await fsyncDir(dir);
      const spool = new Spool({ id, dir, opts, lock, segments, drain, recovery });
      await spool.io.ready().catch(async (err: unknown) => {
        await spool.io.stop();
        throw err;
      });
      // segments drained before the stop no longer count against the cap
      await spool.dropDrainedHead();
      return spool;
    } catch (err) {
      await lock.release();
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

  /** Records not yet acknowledged by the drainer. */
  get pendingRecords(): number {
    return this.undrainedRecords;
  }

  /**
   * When the oldest record not yet acknowledged was appended (epoch ms; one
   * found on disk at open counts from the open), or undefined when none is.
   */
  get oldestPendingAtMs(): number | undefined {
    if (this.undrainedRecords === 0) return undefined;
    for (const segment of this.segments) {
      if (segment.seq < this.drain.seq) continue;
      const from = segment.seq === this.drain.seq ? this.drain.offset : 0;
      for (const r of segment.records) if (r.offset >= from) return r.atMs ?? this.openedAtMs;
    }
    return undefined;
  }

  /** The segment files holding records of `version` not yet drained, oldest first. */
  segmentFilesWith(version: number): string[] {
    const files: string[] = [];
    for (const segment of this.segments) {
      const from = segment.seq === this.drain.seq ? this.drain.offset : 0;
      if (segment.seq >= this.drain.seq && segment.records.some((r) => r.offset >= from && r.version === version))
        files.push(segmentPath(this.dir, segment.seq));
    }
    return files;
  }

  /** The weight acknowledged by the drainer since open: it only grows. */
  get ackedWeight(): number {
    return this.acked;
  }

  /**
   * Appends one record made of `parts` (written back to back, checksummed as
   * one). Resolves once it is durable; rejects with SpoolFullError, without
   * writing anything, when it would pass the cap, or with the I/O error.
   * The parts are the spool's from then on: a part that is the whole of its
   * buffer is moved to the writing thread (SpoolIoThread.writeDurably).
   */
  append(parts: readonly Uint8Array[], weight: number): Promise<void> {
    if (this.closed) return Promise.reject(new Error('spool is closed'));
    let header: Buffer;
    try {
      header = encodeRecordHeader(parts, weight, this.version);
    } catch (err) {
      return Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
    const bytes = header.length + parts.reduce((n, p) => n + p.byteLength, 0);
    if (this.usedBytes + bytes > this.maxBytes) return Promise.reject(new SpoolFullError(this.maxBytes));
    this.reservedBytes += bytes;
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ header, parts, bytes, weight, version: this.version, resolve, reject });
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
   * A batch runs on into the next segments while its limits allow. The
   * range is checkpointed before it is returned; after a restart the range
   * that was in flight comes back whole, whatever the limits.
   */
  async nextBatch(limits: { maxWeight: number; maxBytes: number }): Promise<SpoolBatch | undefined> {
    const head = await this.dropDrainedHead();
    if (head === undefined) return undefined;
    const start: SpoolPosition = { seq: this.drain.seq, offset: this.drain.offset };
    const pending = pendingEnd(this.drain);
    const ranges: SpoolRange[] = [];
    let weight = 0;
    let bytes = 0;
    let records = 0;
    let version: number | undefined;
    let stop = false;
    collect: for (const segment of this.segments) {
      const from = segment.seq === start.seq ? start.offset : 0;
      let to = from;
      for (const r of segment.records) {
        if (r.offset < from) continue;
        if (version !== undefined && r.version !== version) {
          stop = true; // a batch holds one version only
          break;
        }
        version = r.version;
        if (pending !== undefined) {
          if (segment.seq > pending.seq || (segment.seq === pending.seq && r.offset >= pending.offset)) break;
        } else if (weight > 0 && (weight + r.weight > limits.maxWeight || bytes + r.bytes > limits.maxBytes)) break;
        weight += r.weight;
        bytes += r.bytes;
        records++;
        to = r.offset + r.bytes;
      }
      if (to > from) ranges.push({ seq: segment.seq, from, to });
      // go on only past the whole of a sealed segment
      if (stop || !segment.sealed || to < segment.size || (pending !== undefined && segment.seq >= pending.seq))
        break collect;
    }
    const last = ranges.at(-1);
    if (last === undefined || version === undefined) return undefined; // the head is the active segment, with nothing new
    // a batch in flight that mixed versions (only a spool not written by a build of this kind) is cut at the first change
    if (pending === undefined || pending.seq !== last.seq || pending.offset !== last.to) {
      this.drain =
        last.seq === start.seq
          ? { ...start, pendingTo: last.to }
          : { ...start, pendingTo: last.to, pendingSeq: last.seq };
      await writeDrainCheckpoint(this.dir, this.drain);
    }
    // within one segment the token keeps the form it had before batches could span segments
    const end = last.seq === start.seq ? `${last.to}` : `${last.seq}-${last.to}`;
    const read = (range: SpoolRange, into: ReadBuffer | undefined): AsyncGenerator<Buffer> =>
      this.readPayloads(range, into);
    async function* payloads(opts: { reuse?: boolean } = {}): AsyncGenerator<Buffer> {
      const into = opts.reuse === true ? new ReadBuffer() : undefined;
      for (const range of ranges) yield* read(range, into);
    }
    return { token: `${this.id}-${start.seq}-${start.offset}-${end}`, payloads, weight, records, version, ranges };
  }

  /** Marks a batch from `nextBatch` as stored, and deletes the segments it drained. */
  async ack(batch: SpoolBatch): Promise<void> {
    const first = batch.ranges[0];
    const last = batch.ranges.at(-1);
    if (first === undefined || last === undefined || this.drain.seq !== first.seq || this.drain.offset !== first.from) {
      // invariant: the drainer acks batches in the order it read them (a plain Error, never a user's error)
      throw new Error(`spool ack out of order (${batch.token})`);
    }
    this.drain = { seq: last.seq, offset: last.to };
    await writeDrainCheckpoint(this.dir, this.drain);
    this.undrainedWeight -= batch.weight;
    this.undrainedRecords -= batch.records;
    this.acked += batch.weight;
    await this.dropDrainedHead();
    await this.releaseDrainedActive();
  }

  /**
   * Seals and deletes the segment being written once all of it is stored,
   * when it holds half the cap or more: space comes back a sealed segment at
   * a time, so a cap below the segment size would otherwise fill with
   * stored records and refuse every append.
   */
  private async releaseDrainedActive(): Promise<void> {
    const active = this.active;
    if (active === undefined || this.writing !== undefined || this.queue.length > 0) return;
    const { segment } = active;
    const stored =
      segment.seq === this.drain.seq && this.drain.offset >= segment.size && this.drain.pendingTo === undefined;
    if (!stored || this.diskBytes * 2 < this.maxBytes) return;
    segment.sealed = true;
    this.active = undefined; // an append from now on starts a new segment
    await this.io.closeFile(active.fd);
    await this.dropDrainedHead();
  }

  /**
   * Deletes the drained segments at the head — those before the checkpoint's,
   * and the checkpoint's own once sealed and drained to its end with no batch
   * in flight — and returns the head left, if any.
   */
  private async dropDrainedHead(): Promise<Segment | undefined> {
    for (;;) {
      const head = this.segments[0];
      if (head === undefined) return undefined;
      if (head.seq > this.drain.seq) this.drain = { seq: head.seq, offset: 0 }; // the checkpoint's segment is gone
      const atEnd =
        head.seq === this.drain.seq &&
        head.sealed &&
        this.drain.offset >= head.size &&
        this.drain.pendingTo === undefined;
      if (head.seq === this.drain.seq && !atEnd) return head;
      await this.dropSegment(head);
    }
  }

  /** Writes what was accepted, then releases the directory. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    while (this.writing !== undefined) await this.writing;
    if (this.active !== undefined) await this.io.closeFile(this.active.fd).catch(() => undefined);
    this.active = undefined;
    await this.io.stop();
    for (const wake of this.dataWaiters.splice(0)) wake();
    await this.lock.release();
  }

  private async writeQueued(): Promise<void> {
    while (this.queue.length > 0) {
      const group = this.queue;
      this.queue = [];
      const bytes = group.reduce((n, a) => n + a.bytes, 0);
      try {
        const { segment, fd } = await this.activeSegment();
        const start = segment.size;
        try {
          await this.io.writeDurably(
            fd,
            group.flatMap((a) => [a.header, ...a.parts]),
            start,
          );
        } catch (err) {
          await this.abandonActive(start);
          throw err;
        }
        let offset = start;
        const atMs = Date.now();
        for (const a of group) {
          segment.records.push({ offset, bytes: a.bytes, weight: a.weight, version: a.version, atMs });
          offset += a.bytes;
          this.undrainedWeight += a.weight;
        }
        this.undrainedRecords += group.length;
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

  private async activeSegment(): Promise<{ segment: Segment; fd: number }> {
    if (this.active !== undefined && this.active.segment.size < this.segmentBytes) return this.active;
    if (this.active !== undefined) {
      this.active.segment.sealed = true;
      const fd = this.active.fd;
      this.active = undefined;
      await this.io.closeFile(fd);
    }
    const segment: Segment = { seq: this.nextSeq++, size: 0, records: [], sealed: false };
    const fd = await this.io.create(segmentPath(this.dir, segment.seq), this.dir);
    this.segments.push(segment);
    this.active = { segment, fd };
    return this.active;
  }

  /** After a failed write: cut the partial bytes if possible and seal the segment; the next write starts a new one. */
  private async abandonActive(validBytes: number): Promise<void> {
    const active = this.active;
    if (active === undefined) return;
    this.active = undefined;
    active.segment.sealed = true;
    await this.io.truncate(active.fd, validBytes).catch(() => undefined); // if this fails, the next open cuts the tail
    await this.io.closeFile(active.fd).catch(() => undefined);
  }

  private async dropSegment(segment: Segment): Promise<void> {
    this.segments.shift();
    this.diskBytes -= segment.size;
    await unlink(segmentPath(this.dir, segment.seq)).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT') throw err;
    });
  }

  /** The records' payloads of a range; into `into` when given (each valid until the next is read). */
  private async *readPayloads({ seq, from, to }: SpoolRange, into?: ReadBuffer): AsyncGenerator<Buffer> {
    const handle = await open(segmentPath(this.dir, seq), 'r');
    const readExactly = async (bytes: number, at: number, reuse = false): Promise<Buffer> => {
      const buf = reuse && into !== undefined ? into.take(bytes) : Buffer.allocUnsafe(bytes);
      for (let read = 0; read < bytes;) {
        const { bytesRead } = await handle.read(buf, read, bytes - read, at + read);
        if (bytesRead === 0)
          throw new TelltaleError({
            code: TelltaleErrorCode.SPOOL_CORRUPT,
            message: `spool segment ${seq} ends before byte ${to}`,
          });
        read += bytesRead;
      }
      return buf;
    };
    try {
      for (let at = from; at < to;) {
        // an unversioned record's header is shorter: never read past the range
        const header = decodeRecordHeader(await readExactly(Math.min(RECORD_HEADER_BYTES, to - at), at), 0);
        const payload =
          header === undefined || at + header.headerBytes + header.payloadBytes > to
            ? undefined
            : await readExactly(header.payloadBytes, at + header.headerBytes, true);
        if (header === undefined || payload === undefined || !payloadChecksumHolds(payload, header)) {
          throw new TelltaleError({
            code: TelltaleErrorCode.SPOOL_CORRUPT,
            message: `spool segment ${seq} is corrupt at byte ${at}`,
          });
        }
        yield payload;
        at += header.headerBytes + header.payloadBytes;
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

/**
 * The checkpoint must point at a record boundary of a present segment;
 * otherwise drain from the oldest segment. A batch in flight whose end is
 * not a record boundary of a present segment is forgotten (it is handed out
 * anew, sized by the limits).
 */
function validDrain(drain: DrainCheckpoint, segments: readonly Segment[]): DrainCheckpoint {
  const boundary = (at: SpoolPosition): boolean => {
    const segment = segments.find((s) => s.seq === at.seq);
    return segment !== undefined && (at.offset === segment.size || segment.records.some((r) => r.offset === at.offset));
  };
  if (!segments.some((s) => s.seq === drain.seq)) return { seq: segments[0]?.seq ?? drain.seq, offset: 0 };
  if (!boundary(drain))
    throw new TelltaleError({
      code: TelltaleErrorCode.SPOOL_CORRUPT,
      message: `spool checkpoint points inside a record (segment ${drain.seq}, byte ${drain.offset})`,
    });
  const pending = pendingEnd(drain);
  if (pending !== undefined && !boundary(pending)) return { seq: drain.seq, offset: drain.offset };
  return drain;
}

/** A buffer a reader reads record after record into: it grows to the largest, and each read reuses it. */
class ReadBuffer {
  private buf = Buffer.allocUnsafeSlow(0);

  /** A view of `bytes` at its start (what an earlier take gave is overwritten by the next read). */
  take(bytes: number): Buffer {
    if (this.buf.length < bytes) this.buf = Buffer.allocUnsafeSlow(Math.max(bytes, 2 * this.buf.length));
    return this.buf.subarray(0, bytes);
  }
}
