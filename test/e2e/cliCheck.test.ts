import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendAgentRuns } from './harness/sendAgentRuns.js';
import { TelltaleProcess } from './harness/TelltaleProcess.js';

const CLI = fileURLToPath(new URL('../../apps/server/dist/cli.js', import.meta.url));

function cli(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { timeout: 30_000, env: { ...process.env, TELLTALE_API_KEY: '' } },
      (err, stdout, stderr) => {
        const code = err === null ? 0 : typeof err.code === 'number' ? err.code : -1;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

describe('telltale check / report against a real server', () => {
  let telltale: TelltaleProcess;
  beforeAll(async () => {
    telltale = await TelltaleProcess.start();
    const startMs = Date.now() - 30 * 60_000;
    // good: 40 runs, all succeed, 1 s each, no loops. bad: 40 runs, every 4th fails (75%), 5 s each,
    // every 2nd repeats the same search three times (a loop in 50% of runs).
    await sendAgentRuns(telltale.url, {
      service: 'shop',
      agent: 'good-agent',
      runs: 40,
      startMs,
      fails: () => false,
      durationMs: () => 1000,
    });
    await sendAgentRuns(telltale.url, {
      service: 'shop',
      agent: 'bad-agent',
      runs: 40,
      startMs: startMs + 500,
      fails: (i) => i % 4 === 0,
      durationMs: () => 5000,
      repeats: (i) => (i % 2 === 0 ? 3 : 1),
    });
  });
  afterAll(async () => {
    await telltale.dispose();
  });

  it('exits 1 when the bad agent misses its bar, naming the bar and the measured value', async () => {
    const { code, stdout } = await cli(['check', '--endpoint', telltale.url, '--since', '2h', '--min-success', '0.95']);
    expect(code).toBe(1);
    expect(stdout).toContain('FAIL bad-agent (shop) min-success: 75.00% not ≥ 95.00% (40 runs)');
    expect(stdout).toContain('ok   good-agent (shop) min-success: 100.00% ≥ 95.00% (40 runs)');
  });

  it('exits 1 for the bad agent selected, 0 for the good agent selected', async () => {
    const bad = await cli([
      'check',
      '--endpoint',
      telltale.url,
      '--since',
      '2h',
      '--min-success',
      '95%',
      '--agent',
      'bad-agent',
    ]);
    expect(bad.code).toBe(1);
    expect(bad.stdout).not.toContain('good-agent');
    const good = await cli([
      'check',
      '--endpoint',
      telltale.url,
      '--since',
      '2h',
      '--min-success',
      '95%',
      '--agent',
      'good-agent',
    ]);
    expect(good.code).toBe(0);
    expect(good.stdout).toContain('all 1 agent(s) meet every bar');
  });

  it('exits 1 when the bad agent is slower than --max-p99, 0 when the bar allows it', async () => {
    const tight = await cli(['check', '--endpoint', telltale.url, '--since', '2h', '--max-p99', '2s']);
    expect(tight.code).toBe(1);
    expect(tight.stdout).toContain('FAIL bad-agent (shop) max-p99: 5 s not ≤ 2 s (40 runs)');
    expect(tight.stdout).toContain('ok   good-agent (shop) max-p99: 1 s ≤ 2 s (40 runs)');
    const loose = await cli([
      'check',
      '--endpoint',
      telltale.url,
      '--since',
      '2h',
      '--max-p99',
      '5500ms',
      '--min-success',
      '0.7',
    ]);
    expect(loose.code).toBe(0);
  });

  it('exits 1 when the bad agent loops more than --max-loop-rate', async () => {
    const { code, stdout } = await cli([
      'check',
      '--endpoint',
      telltale.url,
      '--since',
      '2h',
      '--max-loop-rate',
      '0.01',
      '--max-p99',
      '10s',
    ]);
    expect(code).toBe(1);
    expect(stdout).toContain('FAIL bad-agent (shop) max-loop-rate: 50.00% not ≤ 1.00% (40 runs)');
    expect(stdout).toContain('ok   good-agent (shop) max-loop-rate: 0.00% ≤ 1.00% (40 runs)');
    expect(stdout).toContain('ok   bad-agent (shop) max-p99: 5 s ≤ 10 s (40 runs)');
    const good = await cli([
      'check',
      '--endpoint',
      telltale.url,
      '--since',
      '2h',
      '--max-loop-rate',
      '0.01',
      '--min-success',
      '0.95',
      '--max-p99',
      '2s',
      '--agent',
      'good-agent',
    ]);
    expect(good.code).toBe(0);
  });

  it('exits 0 when every agent meets a lower bar', async () => {
    const { code } = await cli([
      'check',
      '--endpoint',
      telltale.url,
      '--since',
      '2h',
      '--min-success',
      '0.7',
      '--max-p99',
      '5s',
      '--max-loop-rate',
      '0.5',
    ]);
    expect(code).toBe(0);
  });

  it('exits 1 when the window holds no runs of the agent', async () => {
    const { code, stdout } = await cli([
      'check',
      '--endpoint',
      telltale.url,
      '--since',
      '2h',
      '--min-success',
      '0.5',
      '--agent',
      'nobody',
    ]);
    expect(code).toBe(1);
    expect(stdout).toContain('no completed runs of agent nobody');
  });

  it('exits 2 with a clear message for usage and connection errors', async () => {
    const noBar = await cli(['check', '--endpoint', telltale.url]);
    expect(noBar.code).toBe(2);
    expect(noBar.stderr).toContain('no bar to check');
    const badDuration = await cli(['check', '--endpoint', telltale.url, '--max-p99', 'fast']);
    expect(badDuration.code).toBe(2);
    expect(badDuration.stderr).toContain('invalid --max-p99 "fast"');
    const unknown = await cli(['check', '--endpoint', telltale.url, '--min-success', '0.9', '--bogus']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown option '--bogus'");
    const down = await cli(['check', '--endpoint', 'http://127.0.0.1:9', '--min-success', '0.9']);
    expect(down.code).toBe(2);
    expect(down.stderr).toContain('cannot reach the Telltale server at http://127.0.0.1:9');
  });

  it('report prints the observed and predicted success of the window', async () => {
    const { code, stdout } = await cli(['report', '--endpoint', telltale.url, '--since', '2h']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/Runs: 80 {2}\(70 success, 10 failure, 0 incomplete\)/);
    expect(stdout).toMatch(/observed\s+87\.5%/);
    expect(stdout).toMatch(/Run latency: p50 1 s · p95 5 s · p99 5 s · max 5 s {2}\(80 runs\)/);
    expect(stdout).toContain(
      'Loops: 20 of 80 runs (25.0%) · repeated action 20 · no progress 0 · ping-pong 0 · runaway 0',
    );
    expect(stdout).toMatch(/Failures by primary cause \(10 failed runs\)\n.*\n.*\n {2}loop +10 +100\.0%/);
    const json = await cli(['report', '--endpoint', telltale.url, '--since', '2h', '--agent', 'bad-agent', '--json']);
    expect(json.code).toBe(0);
    const parsed = JSON.parse(json.stdout) as { reliability: { runs: { success: number; failure: number } } };
    expect(parsed.reliability.runs).toEqual({ success: 30, failure: 10, incomplete: 0 });
  });
});
