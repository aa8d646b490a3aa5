import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { EXIT_PORT_IN_USE } from './exitCodes.js';
import { CONTROL_PATH, type FaultMode } from './FaultMode.js';

/** The built server (from `src/` or `dist/` alike: both sit next to `dist/`). */
const MAIN = fileURLToPath(new URL('../dist/main.js', import.meta.url));
const READY = /^listening (http:\/\/\S+):(\d+)$/;

export interface ChServerStartOptions {
  /** The chDB data directory; default a new temporary one, removed by `dispose()`. */
  dataDir?: string;
  /** Port of the first start; default 0 (the OS picks a free one). Restarts keep the port. */
  port?: number;
  host?: string;
  /** Extra arguments for the server, e.g. `['--max-data-bytes', '1000']`. */
  args?: readonly string[];
  /** How long a start may take (default 30 s). */
  startTimeoutMs?: number;
}

export interface ChServerExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/**
 * The test server as a real child process on a real port. A test can stop
 * it (SIGTERM: graceful; SIGKILL: a crash), start it again on the same port
 * and data directory — so a client configured with its URL reconnects to
 * the data written before — and switch its fault modes.
 */
export class ChServerProcess {
  /** The server's stderr and stdout lines, for failure messages. */
  readonly logs: string[] = [];
  port: number;
  private base = '';
  private child: ChildProcess | undefined;
  private exited: Promise<ChServerExit> = Promise.resolve({ code: null, signal: null });

  constructor(
    readonly dataDir: string,
    private readonly opts: ChServerStartOptions,
    private readonly ownsDataDir: boolean,
  ) {
    this.port = opts.port ?? 0;
  }

  /** `http://127.0.0.1:PORT` */
  get url(): string {
    return this.base;
  }

  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Starts the server (again): the first time on the given port (default: any), later on the same one. */
  async start(): Promise<void> {
    if (this.running) throw new Error('chserver is already running');
    const deadline = Date.now() + (this.opts.startTimeoutMs ?? 30_000);
    // After a stop, the port can stay taken for a moment (or be taken by someone else): retry.
    while ((await this.spawnOnce(deadline)) === 'port-in-use') {
      if (Date.now() > deadline) throw new Error(`chserver: port ${this.port} stayed in use:\n${this.tail()}`);
      await sleep(100);
    }
  }

  /** Stops the server: SIGTERM lets running requests answer first, SIGKILL is a crash. */
  async stop(signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM'): Promise<ChServerExit> {
    if (this.running) this.child!.kill(signal);
    return this.exited;
  }

  async restart(signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM'): Promise<void> {
    await this.stop(signal);
    await this.start();
  }

  /** Switches the fault mode (see FaultMode). */
  async setMode(mode: FaultMode): Promise<void> {
    const res = await fetch(`${this.base}${CONTROL_PATH}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(mode),
    });
    if (!res.ok)
      throw new Error(`chserver refused the mode ${JSON.stringify(mode)}: ${res.status} ${await res.text()}`);
  }

  /** Stops the server (SIGKILL after 10 s) and removes a data directory it created. */
  async dispose(): Promise<void> {
    const killer = setTimeout(() => void this.stop('SIGKILL'), 10_000);
    await this.stop('SIGTERM');
    clearTimeout(killer);
    if (this.ownsDataDir) rmSync(this.dataDir, { recursive: true, force: true });
  }

  private spawnOnce(deadline: number): Promise<'ready' | 'port-in-use'> {
    const args = [
      '--data-dir',
      this.dataDir,
      '--port',
      String(this.port),
      '--host',
      this.opts.host ?? '127.0.0.1',
      '--parent-pid',
      String(process.pid),
    ];
    const child = spawn(process.execPath, [MAIN, ...args, ...(this.opts.args ?? [])], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    this.exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    createInterface({ input: child.stderr }).on('line', (line) => this.logs.push(line));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => {
          child.kill('SIGKILL');
          reject(new Error(`chserver did not start in time:\n${this.tail()}`));
        },
        Math.max(0, deadline - Date.now()),
      );
      createInterface({ input: child.stdout }).on('line', (line) => {
        this.logs.push(line);
        const ready = READY.exec(line);
        if (ready === null) return;
        clearTimeout(timer);
        this.base = `${ready[1]}:${ready[2]}`;
        this.port = Number(ready[2]);
        resolve('ready');
      });
      void this.exited.then(({ code, signal }) => {
        clearTimeout(timer);
        if (code === EXIT_PORT_IN_USE) resolve('port-in-use');
        else reject(new Error(`chserver exited (${code ?? signal}) before it was ready:\n${this.tail()}`));
      });
    });
  }

  private tail(): string {
    return this.logs.slice(-40).join('\n');
  }
}

/** Starts a chserver process and waits until it serves. */
export async function startChServer(opts: ChServerStartOptions = {}): Promise<ChServerProcess> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'chserver-data-'));
  const server = new ChServerProcess(dataDir, opts, opts.dataDir === undefined);
  try {
    await server.start();
  } catch (err) {
    if (opts.dataDir === undefined) rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
  return server;
}
