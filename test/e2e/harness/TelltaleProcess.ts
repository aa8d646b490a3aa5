import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { withinMs } from './withinMs.js';

const CLI = fileURLToPath(new URL('../../../apps/server/dist/cli.js', import.meta.url));
/** A graceful stop flushes the spool and finalises run facts for at most 10 s; this leaves room for that. */
const STOP_MS = 30_000;
/** A killed process is reaped at once; this only bounds the wait. */
const KILL_MS = 5_000;

/**
 * The real `telltale start` in a child process (its own chDB, its own data
 * directory), on a free port. Logs are kept for assertions and failures.
 */
export class TelltaleProcess {
  readonly logs: string[] = [];
  private readonly logWaiters = new Set<(line: string) => void>();
  private child: ChildProcess | undefined;
  url = '';
  /** The OTLP/gRPC receiver's `host:port` (any free port unless the args say otherwise). */
  grpcAddress = '';

  private constructor(
    readonly dataDir: string,
    private extraArgs: readonly string[],
    private readonly ownsDataDir: boolean,
    private env: Readonly<Record<string, string>>,
  ) {}

  static async start(
    opts: { dataDir?: string; args?: readonly string[]; env?: Record<string, string> } = {},
  ): Promise<TelltaleProcess> {
    const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'telltale-e2e-'));
    const proc = new TelltaleProcess(dataDir, opts.args ?? [], opts.dataDir === undefined, opts.env ?? {});
    await proc.spawn();
    return proc;
  }

  /** How the last child ended (after `exited`). */
  exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;

  private spawn(): Promise<void> {
    this.exit = undefined;
    const child = spawn(
      process.execPath,
      [
        CLI,
        'start',
        '--port',
        '0',
        '--grpc-port',
        '0',
        '--data-dir',
        this.dataDir,
        '--log-level',
        'info',
        ...this.extraArgs,
      ],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, ...this.env },
      },
    );
    child.once('exit', (code, signal) => {
      this.exit = { code, signal };
    });
    this.child = child;
    createInterface({ input: child.stderr }).on('line', (line) => this.addLog(line));
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`telltale did not start in 30 s:\n${this.logs.join('\n')}`)),
        30_000,
      );
      createInterface({ input: child.stdout }).on('line', (line) => {
        this.addLog(line);
        const entry = parseJson(line);
        if (typeof entry?.url === 'string' && entry.msg === 'telltale listening') {
          this.url = entry.url;
          this.grpcAddress = typeof entry.grpc === 'string' ? entry.grpc : '';
          clearTimeout(timer);
          resolve();
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`telltale exited with ${code}:\n${this.logs.join('\n')}`));
      });
    });
  }

  /**
   * SIGTERM and wait: the server flushes what it accepted before exiting.
   * Past `timeoutMs` it is killed (SIGKILL), so a teardown never hangs;
   * the forced kill is logged and the exit code is then null.
   */
  async stop(timeoutMs = STOP_MS): Promise<number | null> {
    const child = this.child;
    if (child === undefined || child.exitCode !== null || child.signalCode !== null) return child?.exitCode ?? null;
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    if (await withinMs(timeoutMs, exited)) return exited;
    console.warn(`telltale (pid ${child.pid ?? '?'}) did not stop within ${timeoutMs} ms of SIGTERM: killed`);
    child.kill('SIGKILL');
    await withinMs(KILL_MS, exited);
    return null;
  }

  /**
   * Resolves with the first log line from index `from` on that satisfies
   * `test`, as soon as it is read (a fault test can act at that very moment);
   * rejects after `timeoutMs`.
   */
  waitForLog(test: (line: string) => boolean, from = 0, timeoutMs = 30_000): Promise<string> {
    const seen = this.logs.slice(from).find(test);
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const waiter = (line: string): void => {
        if (!test(line)) return;
        this.logWaiters.delete(waiter);
        clearTimeout(timer);
        resolve(line);
      };
      const timer = setTimeout(() => {
        this.logWaiters.delete(waiter);
        reject(new Error(`no such log line in ${timeoutMs} ms:\n${this.logs.slice(from).join('\n')}`));
      }, timeoutMs);
      this.logWaiters.add(waiter);
    });
  }

  private addLog(line: string): void {
    this.logs.push(line);
    for (const waiter of [...this.logWaiters]) waiter(line);
  }

  /** The server's process id (for /proc readings). */
  get pid(): number {
    const pid = this.child?.pid;
    if (pid === undefined) throw new Error('not started');
    return pid;
  }

  /** Sends a signal (SIGKILL: no cleanup at all) and waits for the exit. */
  async kill(signal: NodeJS.Signals): Promise<void> {
    const child = this.child;
    if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill(signal);
    if (await withinMs(signal === 'SIGKILL' ? KILL_MS : STOP_MS, exited)) return;
    child.kill('SIGKILL');
    await withinMs(KILL_MS, exited);
  }

  /** Resolves when the child exits by itself (e.g. a failpoint). */
  async exited(timeoutMs: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    const child = this.child;
    if (child === undefined) throw new Error('not started');
    if (this.exit !== undefined) return this.exit;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`telltale still running after ${timeoutMs} ms`)), timeoutMs);
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        resolve({ code, signal });
      });
    });
  }

  /** Starts again on the same data dir, optionally with other arguments and environment. */
  async restart(opts: { args?: readonly string[]; env?: Record<string, string> } = {}): Promise<void> {
    await this.stop();
    if (opts.args !== undefined) this.extraArgs = opts.args;
    if (opts.env !== undefined) this.env = opts.env;
    await this.spawn();
  }

  async dispose(): Promise<void> {
    await this.stop();
    if (this.ownsDataDir) rmSync(this.dataDir, { recursive: true, force: true });
  }

  async getJson<T>(path: string): Promise<{ status: number; body: T }> {
    const res = await fetch(`${this.url}${path}`);
    return { status: res.status, body: (await res.json()) as T };
  }
}

function parseJson(line: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(line) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}
