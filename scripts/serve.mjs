#!/usr/bin/env node
// Runs the built server (`telltale <args>`) as a child process and passes on
// the SIGINT and SIGTERM this process gets, then exits as the server did.
// `npm run up` ends here, so stopping it by its pid (`kill`, `timeout`, a
// process manager) shuts the server down gracefully instead of orphaning it.
// The server takes a signal that reaches it twice within a second (Ctrl-C in
// a terminal signals the whole process group) as one.
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';

const CLI = fileURLToPath(new URL('../apps/server/dist/cli.js', import.meta.url));

/** Runs `telltale ...args` until it exits, passing it this process's SIGINT and SIGTERM; exits with its code. */
export function serve(args) {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('error', (err) => {
    console.error(`could not run the server: ${err.message}`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => process.exit(code ?? 128 + (constants.signals[signal] ?? 0)));
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href)
  serve(process.argv.slice(2));
