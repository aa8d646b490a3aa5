import { open, readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { fsyncDir } from './segmentFiles.js';

/**
 * How far the spool has been drained, and the batch being inserted now.
 * Everything before (`seq`, `offset`) is in the store. `pendingTo`, when set,
 * is the end of the batch that was being inserted: after a crash exactly that
 * range is inserted again, with the same deduplication token, so an insert
 * that landed before the crash is not stored twice.
 */
export interface DrainCheckpoint {
  seq: number;
  offset: number;
  pendingTo?: number;
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
  const { seq, offset, pendingTo } = parsed;
  const whole = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0;
  if (!whole(seq) || !whole(offset) || (pendingTo !== undefined && !whole(pendingTo))) {
    throw new Error(`spool checkpoint ${join(dir, FILE)} is malformed: ${text.slice(0, 200)}`);
  }
  return pendingTo === undefined ? { seq, offset } : { seq, offset, pendingTo };
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
