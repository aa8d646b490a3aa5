#!/usr/bin/env node
// The one test command: install from the lockfile, build, type-check, lint,
// then every test (units, cross-package end-to-end, browser), and a closing
// "N passed, N failed" line.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureChromium } from './ensureChromium.mjs';
import { ensurePromtool } from './ensurePromtool.mjs';
import { pnpm, pnpmCommand } from './pnpm.mjs';
import { summarise } from './summarise.mjs';

pnpm(['install', '--frozen-lockfile']);
if (!ensureChromium()) {
  console.error('Chromium is required for the browser tests.');
  process.exit(1);
}
if (!ensurePromtool()) {
  console.error('promtool is required for the metrics tests.');
  process.exit(1);
}
pnpm(['run', 'build']);
pnpm(['run', 'typecheck']);
pnpm(['run', 'lint']);

const report = join(mkdtempSync(join(tmpdir(), 'telltale-vitest-')), 'report.json');
const vitest = spawnSync(
  pnpmCommand[0],
  [
    ...pnpmCommand.slice(1),
    'exec',
    'vitest',
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${report}`,
    ...process.argv.slice(2),
  ],
  { stdio: 'inherit' },
);
let summary;
try {
  summary = summarise(JSON.parse(readFileSync(report, 'utf8')), vitest.status);
} catch {
  summary = {
    notes: [`vitest wrote no report (exit ${vitest.status ?? vitest.signal})`],
    line: 'tests: 0 passed, 1 failed',
  };
}
for (const note of summary.notes) console.log(note);
console.log(`\n${summary.line}`);
process.exit(vitest.status ?? 1);
