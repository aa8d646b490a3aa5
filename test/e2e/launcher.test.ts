import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

/** What `npm run up` ends in, after installing and building: the server run by a launcher that passes on signals. */
const SERVE = fileURLToPath(new URL('../../scripts/serve.mjs', import.meta.url));

interface Launched {
  launcher: ChildProcess;
  serverPid: number;
  logs: string[];
  exited: Promise<number | null>;
}

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Starts the launcher in a process group of its own (as a shell starts a job), resolves once the server listens. */
function launch(): Promise<Launched> {
  const dataDir = mkdtempSync(join(tmpdir(), 'telltale-launcher-'));
  dirs.push(dataDir);
  const launcher = spawn(
    process.execPath,
    [SERVE, 'start', '--port', '0', '--grpc-port', '0', '--data-dir', dataDir, '--log-level', 'info'],
    {
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const logs: string[] = [];
  const exited = new Promise<number | null>((resolve) => launcher.once('exit', (code) => resolve(code)));
  createInterface({ input: launcher.stderr }).on('line', (line) => logs.push(line));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start in 30 s:\n${logs.join('\n')}`)), 30_000);
    createInterface({ input: launcher.stdout }).on('line', (line) => {
      logs.push(line);
      const entry = JSON.parse(line) as { msg?: string; url?: string };
      if (entry.msg === 'telltale listening' && typeof entry.url === 'string') {
        clearTimeout(timer);
        resolve({ launcher, serverPid: childPid(launcher.pid!), logs, exited });
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the launcher exited with ${code}:\n${logs.join('\n')}`));
    });
  });
}

/** The one child process of `pid` (Linux /proc). */
function childPid(pid: number): number {
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
    .trim()
    .split(' ')
    .filter(Boolean)
    .map(Number);
  if (children.length !== 1) throw new Error(`expected one child of the launcher, found ${children.length}`);
  return children[0]!;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function shutdownLogs(logs: readonly string[]): number {
  return logs.filter((l) => l.includes('shutting down: flushing accepted spans')).length;
}

describe('the launcher of `npm run up`', () => {
  it('stops the server gracefully when only the launcher is signalled (kill, timeout, a process manager)', async () => {
    const run = await launch();
    expect(run.serverPid).not.toBe(run.launcher.pid);
    process.kill(run.launcher.pid!, 'SIGTERM');
    expect(await run.exited).toBe(0);
    expect(shutdownLogs(run.logs)).toBe(1);
    expect(run.logs.some((l) => l.includes('"signal":"SIGTERM"'))).toBe(true);
    expect(alive(run.serverPid)).toBe(false);
  });

  it('shuts down gracefully, not at once, when an interrupt reaches the server twice (Ctrl-C signals the whole group)', async () => {
    const run = await launch();
    // the server gets SIGINT from the group signal and again from the launcher, within milliseconds
    process.kill(-run.launcher.pid!, 'SIGINT');
    expect(await run.exited).toBe(0);
    expect(shutdownLogs(run.logs)).toBe(1);
    expect(alive(run.serverPid)).toBe(false);
  });
});
