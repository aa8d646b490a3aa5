import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../../../apps/server/dist/cli.js', import.meta.url));

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the real `telltale` CLI (built) to completion; a hang fails after
 * `timeoutMs`. `closeStdout`: the reader closes the output pipe at once, as
 * `| head -1` does once it has its line.
 */
export function runCli(
  args: readonly string[],
  opts: { env?: Record<string, string>; timeoutMs?: number; closeStdout?: boolean } = {},
): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [CLI, ...args],
      { timeout: opts.timeoutMs ?? 30_000, env: { ...process.env, TELLTALE_API_KEY: '', ...opts.env } },
      (err, stdout, stderr) => {
        const code = err === null ? 0 : typeof err.code === 'number' ? err.code : -1;
        resolve({ code, stdout, stderr });
      },
    );
    if (opts.closeStdout === true) child.stdout?.destroy();
  });
}
