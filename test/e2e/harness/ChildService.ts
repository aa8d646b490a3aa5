import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { withinMs } from './withinMs.js';

/**
 * A fixture script in its own Node process. Its first JSON line on stdout is
 * its announcement (e.g. `{"port":1234}`); other output is kept for failures.
 */
export class ChildService<T extends object> {
  private constructor(
    private readonly child: ChildProcess,
    readonly announced: T,
    /** Every stdout and stderr line so far. */
    readonly output: string[],
  ) {}

  static async start<T extends object>(
    script: string,
    env: Record<string, string>,
    timeoutMs = 30_000,
  ): Promise<ChildService<T>> {
    const child = spawn(process.execPath, [script], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...env },
    });
    const output: string[] = [];
    createInterface({ input: child.stderr }).on('line', (l) => output.push(l));
    const announced = await new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`${script} did not announce itself in ${timeoutMs} ms:\n${output.join('\n')}`));
      }, timeoutMs);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`${script} exited (${code}) before announcing itself:\n${output.join('\n')}`));
      });
      createInterface({ input: child.stdout }).on('line', (l) => {
        output.push(l);
        if (!l.startsWith('{')) return;
        clearTimeout(timer);
        resolve(JSON.parse(l) as T);
      });
    });
    return new ChildService(child, announced, output);
  }

  /** Resolves with the exit code once the process ends by itself (bounded). */
  async exited(timeoutMs = 30_000): Promise<number | null> {
    if (this.child.exitCode !== null) return this.child.exitCode;
    const done = new Promise<number | null>((resolve) => this.child.once('exit', (code) => resolve(code)));
    if (await withinMs(timeoutMs, done)) return done;
    this.child.kill('SIGKILL');
    throw new Error(`child did not exit within ${timeoutMs} ms:\n${this.output.join('\n')}`);
  }

  /** SIGTERM, then SIGKILL if it has not exited in time. */
  async stop(timeoutMs = 10_000): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const done = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.kill('SIGTERM');
    if (await withinMs(timeoutMs, done)) return;
    this.child.kill('SIGKILL');
    await withinMs(5_000, done);
  }
}
