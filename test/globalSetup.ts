import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * End-to-end tests start the real `telltale` binary from `apps/server/dist`, so
 * bring the TypeScript build up to date first (incremental: fast when nothing changed).
 */
export default function setup(): void {
  const root = fileURLToPath(new URL('..', import.meta.url));
  execFileSync(process.execPath, [fileURLToPath(new URL('../node_modules/typescript/bin/tsc', import.meta.url)), '-b'], {
    cwd: root,
    stdio: 'inherit',
  });
}
