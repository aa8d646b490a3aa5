import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { summarise, type VitestJsonReport } from '../../scripts/summarise.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FIXTURE = join(ROOT, 'test/fixtures/vitest-hook-failure');

/*
 * The test command's closing line is what CI reads: a suite whose tests all
 * passed but whose teardown threw or hung must not read "0 failed".
 */
describe('the test command closing line', () => {
  it('counts a file whose afterAll threw or timed out as a failure', () => {
    const dir = mkdtempSync(join(tmpdir(), 'telltale-summary-'));
    try {
      const report = join(dir, 'report.json');
      const run = spawnSync(
        process.execPath,
        [
          join(ROOT, 'node_modules/vitest/vitest.mjs'),
          'run',
          '--root',
          FIXTURE,
          '--config',
          join(FIXTURE, 'vitest.config.mjs'),
          '--reporter=json',
          `--outputFile.json=${report}`,
        ],
        { cwd: FIXTURE, encoding: 'utf8', timeout: 60_000, env: { ...process.env, CI: 'true' } },
      );
      expect(run.status, run.stderr).toBe(1);
      const { line, notes } = summarise(JSON.parse(readFileSync(report, 'utf8')) as VitestJsonReport, run.status);
      expect(line).toBe('tests: 2 passed, 2 failed');
      expect(notes.map((n) => n.replace(/ — .*/, '').split('/').pop())).toEqual(
        expect.arrayContaining(['hookThrows.check.mjs', 'hookHangs.check.mjs']),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('never reads 0 failed beside a failing exit', () => {
    expect(summarise({ numPassedTests: 898, numFailedTests: 0, testResults: [] }, 1).line).toBe(
      'tests: 898 passed, 1 failed',
    );
    expect(summarise({ numPassedTests: 3, numFailedTests: 0, numPendingTests: 1, testResults: [] }, 0).line).toBe(
      'tests: 3 passed, 0 failed, 1 skipped',
    );
  });
});
