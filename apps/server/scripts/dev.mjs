// `npm run dev`: rebuilds the server and the packages it uses on every change (tsc -b --watch) and restarts
// `telltale start` when the built code changes (node --watch). Extra arguments go to `telltale start`.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const cli = join(root, 'dist', 'cli.js');

/** Resolves once the first build has finished (tsc prints "Watching for file changes."). */
function watchBuild() {
  const child = spawn(process.execPath, [tsc, '-b', '--watch', '--preserveWatchOutput'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const ready = new Promise((resolve) => {
    child.stdout.on('data', (chunk) => {
      process.stdout.write(chunk);
      if (String(chunk).includes('Watching for file changes')) resolve();
    });
  });
  return { child, ready };
}

const build = watchBuild();
const children = [build.child];
let stopping = false;
const stop = (code) => {
  if (stopping) return;
  stopping = true;
  for (const child of children) child.kill('SIGTERM');
  process.exitCode = code;
};
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
build.child.on('exit', (code) => stop(code ?? 1));

await build.ready;
if (!stopping) {
  if (!existsSync(cli)) {
    console.error(`telltale dev: ${cli} was not built (see the compiler output above)`);
    stop(1);
  } else {
    const server = spawn(process.execPath, ['--watch', cli, 'start', ...process.argv.slice(2)], {
      cwd: root,
      stdio: 'inherit',
    });
    children.push(server);
    server.on('exit', (code) => stop(code ?? 0));
  }
}
