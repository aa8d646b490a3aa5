import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { withinMs } from './withinMs.js';

const START_MS = 60_000;
const STOP_MS = 30_000;
const KILL_MS = 5_000;

/** The environment of a child that must find nothing of the repository: no preloads, no module paths. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  for (const key of ['NODE_OPTIONS', 'NODE_PATH', 'VITEST', 'VITEST_POOL_ID', 'VITEST_WORKER_ID']) delete env[key];
  return env;
}

/**
 * `telltale start` from an installed package's bin (not the repository's
 * build), in its own working directory; started on a free port, stopped with
 * a bounded SIGTERM → SIGKILL.
 */
export class InstalledTelltale {
  readonly logs: string[] = [];
  url = '';

  private constructor(private readonly child: ChildProcess) {}

  static async start(bin: string, args: readonly string[], cwd: string): Promise<InstalledTelltale> {
    const child = spawn(bin, ['start', ...args], { cwd, env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    const proc = new InstalledTelltale(child);
    createInterface({ input: child.stderr }).on('line', (line) => proc.logs.push(line));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`telltale did not start in ${START_MS} ms:\n${proc.logs.join('\n')}`));
      }, START_MS);
      createInterface({ input: child.stdout }).on('line', (line) => {
        proc.logs.push(line);
        const entry = parseJson(line);
        if (entry?.msg === 'telltale listening' && typeof entry.url === 'string') {
          proc.url = entry.url;
          clearTimeout(timer);
          resolve();
        }
      });
      child.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`telltale exited with ${code ?? signal}:\n${proc.logs.join('\n')}`));
      });
    });
    return proc;
  }

  /** SIGTERM, then SIGKILL past the deadline; resolves with the exit code (null when killed). */
  async stop(): Promise<number | null> {
    const child = this.child;
    if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    if (await withinMs(STOP_MS, exited)) return exited;
    child.kill('SIGKILL');
    await withinMs(KILL_MS, exited);
    return null;
  }
}

function parseJson(line: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
