#!/usr/bin/env node
// The one command to try Telltale: install, build, start the server with the
// embedded ClickHouse and load demo data. Open the printed URL.
// package.json runs it with `exec`, so the shell npm starts is replaced by
// this process and a signal npm passes on reaches it (a plain `sh -c` dies of
// the signal and leaves the server running).
import { pnpm } from './pnpm.mjs';
import { serve } from './serve.mjs';

pnpm(['install', '--frozen-lockfile']);
pnpm(['run', 'build']);
serve(['start', '--demo', ...process.argv.slice(2)]);
