#!/usr/bin/env node
// The one command to try Telltale: install, build, start the server with the
// embedded ClickHouse and load demo data. Open the printed URL.
import { pnpm } from './pnpm.mjs';

pnpm(['install', '--frozen-lockfile']);
pnpm(['run', 'build']);
pnpm(['exec', 'node', 'apps/server/dist/cli.js', 'start', '--demo', ...process.argv.slice(2)]);
