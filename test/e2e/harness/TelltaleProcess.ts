import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../../../apps/server/dist/cli.js', import.meta.url));

/**
 * The real `telltale start` in a child process (its own chDB, its own data
 * directory), on a free port. Logs are kept for assertions and failures.
 */
export class TelltaleProcess {
  readonly logs: string[] = [];
  private child: ChildProcess | undefined;
  url = '';

  private constructor(
    readonly dataDir: string,
    private readonly extraArgs: readonly string[],
    private readonly ownsDataDir: boolean,
  ) {}

  static async start(opts: { dataDir?: string; args?: readonly string[] } = {}): Promise<TelltaleProcess> {
    const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'telltale-e2e-'));
    const proc = new TelltaleProcess(dataDir, opts.args ?? [], opts.dataDir === undefined);
    await proc.spawn();
    return proc;
  }

  private spawn(): Promise<void> {
    const child = spawn(process.execPath, [CLI, 'start', '--port', '0', '--data-dir', this.dataDir, '--log-level', 'info', ...this.extraArgs], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    createInterface({ input: child.stderr }).on('line', (line) => this.logs.push(line));
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`telltale did not start in 30 s:\n${this.logs.join('\n')}`)), 30_000);
      createInterface({ input: child.stdout }).on('line', (line) => {
        this.logs.push(line);
        const entry = parseJson(line);
        if (typeof entry?.url === 'string' && entry.msg === 'telltale listening') {
          this.url = entry.url;
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

  /** SIGTERM and wait: the server flushes what it accepted before exiting. */
  async stop(): Promise<number | null> {
    const child = this.child;
    if (child === undefined || child.exitCode !== null) return child?.exitCode ?? null;
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    return exited;
  }

  async restart(): Promise<void> {
    await this.stop();
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
