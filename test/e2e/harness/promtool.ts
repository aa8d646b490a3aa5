import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

/** Debian's prometheus package puts it here (scripts/ensurePromtool.mjs installs it). */
export const PROMTOOL = process.env.TELLTALE_PROMTOOL ?? '/usr/bin/promtool';

export interface PromtoolResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs promtool with `args`, `stdin` piped in; fails (never skips) when promtool is missing. */
export function promtool(args: readonly string[], stdin?: string, timeoutMs = 30_000): Promise<PromtoolResult> {
  if (!existsSync(PROMTOOL)) {
    throw new Error(
      `promtool not found at ${PROMTOOL}: run node scripts/ensurePromtool.mjs (installs Debian's prometheus package), or set TELLTALE_PROMTOOL`,
    );
  }
  return new Promise((resolve, reject) => {
    const child = spawn(PROMTOOL, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`promtool ${args.join(' ')} did not finish in ${timeoutMs} ms`));
    }, timeoutMs);
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(stdin ?? '');
  });
}
