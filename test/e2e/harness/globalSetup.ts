import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * End-to-end tests start the real `telltale` binary from `apps/server/dist`
 * and the browser tests load the built dashboard, so bring the TypeScript
 * build up to date first (incremental: fast when nothing changed) and build
 * the dashboard if it has never been built.
 */
export default function setup(): void {
  const root = fileURLToPath(new URL('../../..', import.meta.url));
  execFileSync(
    process.execPath,
    [fileURLToPath(new URL('../../../node_modules/typescript/bin/tsc', import.meta.url)), '-b'],
    { cwd: root, stdio: 'inherit' },
  );
  if (!existsSync(fileURLToPath(new URL('../../../apps/server/dist/web/index.html', import.meta.url)))) {
    execFileSync('npm', ['run', '--silent', '--prefix', 'apps/web', 'build'], { cwd: root, stdio: 'inherit' });
  }
}
