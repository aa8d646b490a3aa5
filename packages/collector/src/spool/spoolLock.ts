import { mkdir, open, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { TelltaleError, TelltaleErrorCode } from '@telltale/semconv';

const FILE = 'spool.lock';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A spool directory this process holds (lockSpoolDir). */
export interface SpoolDirLock {
  readonly dir: string;
  /** Gives the directory up (removes the lock file); once is enough, again does nothing. */
  release(): Promise<void>;
}

/**
 * One process per spool directory: a lock file holding the owner's pid. A
 * lock left by a process that no longer runs (killed, crashed) is taken over.
 * Creates the directory if needed. A host takes it before anything else
 * that must not happen twice (a server: before it migrates the store), then
 * hands it to the spool (SpoolOptions.lock), which releases it on close.
 */
export async function lockSpoolDir(dir: string): Promise<SpoolDirLock> {
  await mkdir(dir, { recursive: true });
  const path = join(dir, FILE);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const handle = await open(path, 'wx');
      await handle.writeFile(String(process.pid));
      await handle.close();
      let released: Promise<void> | undefined;
      return {
        dir,
        release: () => (released ??= unlink(path).catch(() => undefined)),
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const owner = Number((await readFile(path, 'utf8').catch(() => '')).trim());
    if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && alive(owner)) {
      throw new TelltaleError({
        code: TelltaleErrorCode.SPOOL_LOCKED,
        message: `spool directory ${dir} is in use by process ${owner}; one telltale process per spool directory`,
      });
    }
    await unlink(path).catch(() => undefined);
  }
  throw new TelltaleError({ code: TelltaleErrorCode.SPOOL_LOCKED, message: `could not lock spool directory ${dir}` });
}
