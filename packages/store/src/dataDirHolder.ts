import { readFileSync } from 'node:fs';
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
