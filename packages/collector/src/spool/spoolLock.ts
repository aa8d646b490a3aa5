import { open, readFile, unlink } from 'node:fs/promises';
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

/**
 * One process per spool directory: a lock file holding the owner's pid. A
 * lock left by a process that no longer runs (killed, crashed) is taken over.
 */
export async function lockSpoolDir(dir: string): Promise<() => Promise<void>> {
  const path = join(dir, FILE);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const handle = await open(path, 'wx');
      await handle.writeFile(String(process.pid));
      await handle.close();
      return () => unlink(path).catch(() => undefined);
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
