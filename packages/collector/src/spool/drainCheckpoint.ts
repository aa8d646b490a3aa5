import { open, readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { fsyncDir } from './segmentFiles.js';
import { TelltaleError, TelltaleErrorCode } from '@telltale/semconv';

/** A record boundary in the spool: byte `offset` of segment `seq`. */
export interface SpoolPosition {
  seq: number;
  offset: number;
}

/**
 * How far the spool has been drained, and the batch being inserted now.
 * Everything before (`seq`, `offset`) is in the store. `pendingTo`, when set,
 * is the end of the batch that was being inserted — byte `pendingTo` of
 * segment `pendingSeq` (absent: segment `seq`, as checkpoints written before
 * batches could span segments say): after a crash exactly that range is
 * inserted again, with the same deduplication token, so an insert that landed
 * before the crash is not stored twice.
 */
export interface DrainCheckpoint extends SpoolPosition {
  pendingTo?: number;
  pendingSeq?: number;
}

/** The end of the batch in flight, if any. */
export function pendingEnd(checkpoint: DrainCheckpoint): SpoolPosition | undefined {
  const { pendingTo, pendingSeq } = checkpoint;
  return pendingTo === undefined ? undefined : { seq: pendingSeq ?? checkpoint.seq, offset: pendingTo };
}

const FILE = 'drain.json';

export async function readDrainCheckpoint(dir: string): Promise<DrainCheckpoint | undefined> {
  let text: string;
  try {
    text = await readFile(join(dir, FILE), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  const parsed = JSON.parse(text) as Partial<DrainCheckpoint>;
  const { seq, offset, pendingTo, pendingSeq } = parsed;
  const whole = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0;
  const optional = (n: unknown): boolean => n === undefined || whole(n);
  if (
    !whole(seq) ||
    !whole(offset) ||
    !optional(pendingTo) ||
    !optional(pendingSeq) ||
    (pendingSeq !== undefined && (pendingTo === undefined || pendingSeq < seq))
  ) {
    throw new TelltaleError({
      code: TelltaleErrorCode.SPOOL_CORRUPT,
      message: `spool checkpoint ${join(dir, FILE)} is malformed: ${text.slice(0, 200)}`,
    });
  }
  if (pendingTo === undefined) return { seq, offset };
  return pendingSeq === undefined || pendingSeq === seq
    ? { seq, offset, pendingTo }
    : { seq, offset, pendingTo, pendingSeq };
}

/** Replaces the checkpoint atomically and durably (write, fsync, rename, fsync the directory). */
export async function writeDrainCheckpoint(dir: string, checkpoint: DrainCheckpoint): Promise<void> {
  const tmp = join(dir, `${FILE}.tmp`);
  const handle = await open(tmp, 'w');
  try {
    await handle.writeFile(JSON.stringify(checkpoint));
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(tmp, join(dir, FILE));
  await fsyncDir(dir);
}
