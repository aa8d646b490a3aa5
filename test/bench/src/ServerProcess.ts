import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { createInterface } from 'node:readline';

/**
 * The real `telltale start` (apps/server/dist/cli.js) in a child process, on
 * a free port.
 */
export class ServerProcess {
  readonly logs: string[] = [];
  url = '';
  private exitCode: number | null | undefined;
  private readonly exited: Promise<number | null>;

  private constructor(private readonly child: ChildProcess) {
    this.exited = new Promise((resolve) =>
      child.once('exit', (code) => {
        this.exitCode = code;
        resolve(code);
      }),
    );
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  /**
   * Starts the server on a free port (found here: at `--log-level warn` the
   * server does not log its URL) and waits until GET /api/v1/health answers
   * (sent with `headers`: a server started with `--auth keys` wants a read key there).
   */
  static async start(
    cli: string,
    args: readonly string[],
    nodeArgs: readonly string[] = [],
    headers: Record<string, string> = {},
  ): Promise<ServerProcess> {
    const port = await freePort();
    const child = spawn(
      process.execPath,
      [...nodeArgs, cli, 'start', '--port', String(port), '--grpc-port', 'off', ...args],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const proc = new ServerProcess(child);
    createInterface({ input: child.stderr }).on('line', (line) => proc.keep(line));
    createInterface({ input: child.stdout }).on('line', (line) => proc.keep(line));
    proc.url = `http://127.0.0.1:${port}`;
    const deadline = performance.now() + 60_000;
    for (;;) {
      if (proc.exitCode !== undefined)
        throw new Error(`telltale exited with ${proc.exitCode}:\n${proc.logs.join('\n')}`);
      if (performance.now() > deadline) {
        await proc.stop();
        throw new Error(`telltale did not answer in 60 s:\n${proc.logs.join('\n')}`);
      }
      try {
        const res = await fetch(`${proc.url}/api/v1/health`, { headers });
        await res.arrayBuffer();
        if (res.ok) return proc;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  private keep(line: string): void {
    if (this.logs.length < 1000) this.logs.push(line);
  }

  /** SIGTERM and wait: the server stores everything it acknowledged before exiting. */
  async stop(): Promise<number | null> {
    if (this.exitCode !== undefined) return this.exitCode;
    this.child.kill('SIGTERM');
    return this.exited;
  }
}

/** A port free right now on 127.0.0.1 (the server binds it a moment later). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() =>
        typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}
