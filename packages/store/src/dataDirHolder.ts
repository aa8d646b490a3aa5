import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The pid of another live process that holds an embedded data directory, or
 * undefined. chDB (like a ClickHouse server) locks `<dir>/status` and writes
 * its pid there; the file goes away on a clean close, and a lock left by a
 * process that died is released with it — so a stale file names a dead pid.
 */
export function dataDirHolder(dataDir: string): number | undefined {
  let text: string;
  try {
    text = readFileSync(join(dataDir, 'status'), 'utf8');
  } catch {
    return undefined;
  }
  const pid = Number(/^PID:\s*(\d+)/m.exec(text)?.[1]);
  if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid) return undefined;
  try {
    process.kill(pid, 0);
    return pid;
  } catch (err) {
    // EPERM: alive, but another user's
    return (err as NodeJS.ErrnoException).code === 'EPERM' ? pid : undefined;
  }
}

/**
 * The pid of another process that holds an embedded data directory's lock
 * now, as the kernel lists it (`/proc/locks`: a lock on `<dir>/status`'s
 * inode, held by the pid the file names), or undefined: no such lock, or no
 * `/proc/locks` to read (then only opening the directory tells). Asked
 * before the engine opens the directory, so a refusal is one clear message
 * rather than the engine's own line first.
 */
export function lockedDataDirHolder(dataDir: string): number | undefined {
  const pid = dataDirHolder(dataDir);
  if (pid === undefined) return undefined;
  let locks: string;
  let inode: number;
  try {
    inode = statSync(join(dataDir, 'status')).ino;
    locks = readFileSync('/proc/locks', 'utf8');
  } catch {
    return undefined;
  }
  // "1: FLOCK  ADVISORY  WRITE 3896 fe:00:2146592 0 EOF": pid, then device:inode
  for (const line of locks.split('\n')) {
    const fields = line.trim().split(/\s+/);
    if (Number(fields[4]) === pid && Number(fields[5]?.split(':')[2]) === inode) return pid;
  }
  return undefined;
}
