import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './harness/runCli.js';
import { withinMs } from './harness/withinMs.js';

const CLI = fileURLToPath(new URL('../../apps/server/dist/cli.js', import.meta.url));
const SERVER_PACKAGE = JSON.parse(readFileSync(new URL('../../apps/server/package.json', import.meta.url), 'utf8')) as {
  version: string;
};

interface Started {
  lines: string[];
  /** Resolves with the first line matching, or rejects after `timeoutMs`. */
  waitFor: (test: (line: string) => boolean, timeoutMs: number) => Promise<string>;
  /** SIGTERM to the process group, SIGKILL after 20 s; resolves when it has exited. */
  stop: () => Promise<void>;
}

/** Runs a command in its own process group, collecting stdout and stderr lines. */
function startProcess(command: string, args: string[], env: Record<string, string>): Started {
  const child = spawn(command, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const lines: string[] = [];
  const waiters = new Set<(line: string) => void>();
  const add = (line: string): void => {
    lines.push(line);
    for (const w of [...waiters]) w(line);
  };
  createInterface({ input: child.stdout }).on('line', add);
  createInterface({ input: child.stderr }).on('line', add);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    lines,
    waitFor: (test, timeoutMs) => {
      const seen = lines.find(test);
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(new Error(`no such line in ${timeoutMs} ms:\n${lines.join('\n')}`));
        }, timeoutMs);
        const waiter = (line: string): void => {
          if (!test(line)) return;
          clearTimeout(timer);
          waiters.delete(waiter);
          resolve(line);
        };
        waiters.add(waiter);
      });
    },
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      process.kill(-child.pid!, 'SIGTERM');
      if (await withinMs(20_000, exited)) return;
      process.kill(-child.pid!, 'SIGKILL');
      await withinMs(5_000, exited);
    },
  };
}

function parseJson(line: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(line) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

describe('telltale --version', () => {
  it('prints the server package version, with --version and -V', async () => {
    for (const flag of ['--version', '-V']) {
      const result = await runCli([flag]);
      expect(result).toEqual({ code: 0, stdout: `${SERVER_PACKAGE.version}\n`, stderr: '' });
    }
  });
});

describe('telltale start with a bad value', () => {
  const cases: Array<[string[], Record<string, string>, string]> = [
    [['--port', 'abc'], {}, 'telltale: --port (TELLTALE_PORT) must be an integer from 0 to 65535, got "abc"'],
    [
      [],
      { TELLTALE_PORT: '99999' },
      'telltale: --port (TELLTALE_PORT) must be an integer from 0 to 65535, got "99999"',
    ],
    [
      ['--retention-days', '0'],
      {},
      'telltale: --retention-days (TELLTALE_RETENTION_DAYS) must be an integer from 1 to 3650, got "0"',
    ],
    [
      ['--clickhouse-url', 'ftp://x'],
      {},
      'telltale: --clickhouse-url (TELLTALE_CLICKHOUSE_URL) must be a URL starting http:// or https://, got "ftp://x"',
    ],
    [['--auth', 'maybe'], {}, 'telltale: --auth (TELLTALE_AUTH) must be one of keys, none, got "maybe"'],
    [[], { TELLTALE_DEMO: 'perhaps' }, 'telltale: --demo (TELLTALE_DEMO) must be true, false, 1 or 0, got "perhaps"'],
  ];
  for (const [args, env, line] of cases) {
    it(`${args.join(' ')} ${JSON.stringify(env)}: one line on stderr, exit 2`, async () => {
      const result = await runCli(['start', ...args], { env });
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(`${line} [INVALID_CONFIG]\n`);
      expect(result.stdout).toBe('');
    });
  }

  it('an unknown flag: one line, exit 2', async () => {
    const result = await runCli(['start', '--prot', '1']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^telltale: unknown option '--prot'.* \[USAGE\]\n$/);
  });
});

describe('admin commands read the storage variables start reads', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'telltale-config-admin-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('TELLTALE_DATA_DIR: `projects create` with no flag writes where `--data-dir` reads', async () => {
    const created = await runCli(['projects', 'create', 'from-env'], { env: { TELLTALE_DATA_DIR: dataDir } });
    expect(created.code, created.stderr).toBe(0);
    const listed = await runCli(['projects', 'list', '--data-dir', dataDir]);
    expect(listed.stdout).toContain('from-env');
  });
});

describe('telltale start configured by its variables', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'telltale-config-e2e-'));
  const started: Started[] = [];
  afterAll(async () => {
    await Promise.all(started.map((s) => s.stop()));
    rmSync(dataDir, { recursive: true, force: true });
  });

  it(
    'TELLTALE_PORT, TELLTALE_GRPC_PORT, TELLTALE_DATA_DIR and TELLTALE_LOG_LEVEL change the running server',
    { timeout: 60_000 },
    async () => {
      // no flags at all: without the variables it would listen on 4318 with gRPC on 4317, at info level
      const server = startProcess(process.execPath, [CLI, 'start'], {
        TELLTALE_PORT: '0',
        TELLTALE_GRPC_PORT: 'off',
        TELLTALE_DATA_DIR: dataDir,
        TELLTALE_LOG_LEVEL: 'debug',
      });
      started.push(server);
      const listening = parseJson(
        await server.waitFor((line) => parseJson(line)?.msg === 'telltale listening', 30_000),
      )!;
      expect(listening).toMatchObject({ grpc: 'off', storage: dataDir });
      const url = String(listening.url);
      expect(new URL(url).port).not.toBe('4318');
      const res = await fetch(`${url}/v1/traces`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"resourceSpans":[]}',
      });
      expect(res.status).toBe(200);
      // a debug line: the level came from the variable
      const otlp = parseJson(await server.waitFor((line) => parseJson(line)?.msg === 'otlp request', 10_000))!;
      expect(otlp).toMatchObject({ level: 20, protocol: 'http', status: 200, spans: 0, project: 'default' });
      await server.stop();
    },
  );

  it('on a terminal, prints readable lines instead of JSON', { timeout: 60_000 }, async () => {
    // `script` (util-linux, Debian's bsdutils) gives the server a pseudo-terminal as stdout
    const command = [process.execPath, CLI, 'start', '--port', '0', '--grpc-port', 'off', '--data-dir', dataDir]
      .map((a) => `'${a}'`)
      .join(' ');
    const server = startProcess('script', ['-qec', command, '/dev/null'], { NO_COLOR: '1' });
    started.push(server);
    const line = await server.waitFor((l) => l.includes('telltale listening'), 30_000);
    expect(parseJson(line)).toBeUndefined();
    expect(line).toMatch(
      /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: telltale listening \{"url":"http:\/\/127\.0\.0\.1:\d+","grpc":"off"/,
    );
    await server.stop();
  });
});
