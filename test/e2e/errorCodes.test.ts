import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './harness/runCli.js';
import { TelltaleProcess } from './harness/TelltaleProcess.js';

// Representative user errors carry their code end to end: in the API's error body and on the CLI's stderr line.

describe('error codes reach the user', () => {
  let telltale: TelltaleProcess;
  beforeAll(async () => {
    telltale = await TelltaleProcess.start({ args: ['--grpc-port', 'off'] });
  });
  afterAll(async () => {
    await telltale?.dispose();
  });

  it('an API 400 body has the code BAD_REQUEST and names the parameter', async () => {
    const res = await fetch(`${telltale.url}/api/v1/runs?outcome=sideways`);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('BAD_REQUEST');
    expect(body.error.message).toMatch(/outcome/);
  });

  it('an API 404 body has the code NOT_FOUND', async () => {
    const res = await fetch(`${telltale.url}/api/v1/runs/no-such-run`);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('NOT_FOUND');
  });

  it('the CLI prints a server error with its code (CONFLICT)', async () => {
    const first = await runCli(['projects', 'create', 'codes', '--endpoint', telltale.url]);
    expect(first.code, first.stderr).toBe(0);
    const again = await runCli(['projects', 'create', 'codes', '--endpoint', telltale.url]);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toBe('telltale: project codes exists already [CONFLICT]\n');
  });

  it('a request the server finds malformed exits 2; one it refuses for what it holds exits 1', async () => {
    const malformed = await runCli([
      'alerts',
      'rules',
      'create',
      '--endpoint',
      telltale.url,
      '--name',
      'x',
      '--metric',
      'e2e_success',
      '--comparison',
      'lt',
      '--threshold',
      '1.5',
    ]);
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toMatch(
      /threshold of e2e_success is a fraction from 0 to 1, got 1\.5.*\[BAD_REQUEST\]\n$/,
    );
    const missing = await runCli(['alerts', 'rules', 'show', 'rule_nope', '--endpoint', telltale.url]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/no alert rule rule_nope \[NOT_FOUND\]\n$/);
  });

  it('a bad flag value of `check` prints USAGE and exits 2', async () => {
    const result = await runCli(['check', '--endpoint', telltale.url, '--min-success', '1.5']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^telltale: invalid --min-success "1\.5": .* \[USAGE\]\n$/);
  });

  it('an unknown flag of `report` prints USAGE and exits 2', async () => {
    const result = await runCli(['report', '--bogus']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^telltale: unknown option '--bogus' \[USAGE\]\n/);
  });

  it('an admin command without its argument or a required option prints USAGE and exits 2', async () => {
    const result = await runCli(['projects', 'create']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^telltale: missing required argument 'id' \[USAGE\]\n/);
    const noKind = await runCli(['keys', 'create', '--project', 'codes', '--endpoint', telltale.url]);
    expect(noKind.code).toBe(2);
    expect(noKind.stderr).toMatch(/^telltale: required option '--kind <kind>' not specified \[USAGE\]\n/);
    const unknown = await runCli(['nosuchcmd']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^telltale: unknown command 'nosuchcmd' \[USAGE\]\n/);
  });

  it('a ClickHouse that does not answer is STORAGE, in one line', async () => {
    const result = await runCli(['migrate', '--clickhouse-url', 'http://default:hunter22@127.0.0.1:1']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'telltale: no ClickHouse at http://127.0.0.1:1: nothing listens there (connection refused) [STORAGE]\n',
    );
  });

  it('a reader that closes the output early ends a command quietly', async () => {
    const result = await runCli(['report', '--endpoint', telltale.url, '--json'], { closeStdout: true });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  });

  it('a server that does not answer is UNREACHABLE', async () => {
    const result = await runCli(['report', '--endpoint', 'http://127.0.0.1:1']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^telltale: cannot reach the Telltale server at http:\/\/127\.0\.0\.1:1.* \[UNREACHABLE\]\n$/,
    );
  });

  it('a port in use is LISTEN_FAILED, and the process exits 1', async () => {
    const port = new URL(telltale.url).port;
    const dataDir = mkdtempSync(join(tmpdir(), 'telltale-codes-'));
    const result = await runCli(['start', '--port', port, '--grpc-port', 'off', '--data-dir', dataDir], {
      timeoutMs: 60_000,
    }).finally(() => rmSync(dataDir, { recursive: true, force: true }));
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      new RegExp(`^telltale: cannot listen on 127\\.0\\.0\\.1:${port} .* \\[LISTEN_FAILED\\]\\n$`),
    );
  });
});
