import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { TelltaleError } from '@telltale/semconv';
import { afterAll, describe, expect, it } from 'vitest';
import { dataDirHolder, lockedDataDirHolder } from './dataDirHolder.js';
import { Store } from './Store.js';

/** Another process with chDB open on `dir` (as a running server has), until its stdin closes. */
function holdDataDir(dir: string): Promise<ChildProcess> {
  const script = `
    const { Session } = require('chdb');
    const session = new Session(process.argv[1]);
    session.query('SELECT 1');
    console.log('holding');
    process.stdin.on('end', () => { session.close(); process.exit(0); });
    process.stdin.resume();`;
  const child = spawn(process.execPath, ['-e', script, dir], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (line === 'holding') resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`holder exited with ${code}`)));
  });
}

describe('an embedded data directory held by another process', () => {
  const dir = mkdtempSync(join(tmpdir(), 'telltale-held-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('fails to open with UNAVAILABLE naming the holder, quickly, and opens once it is released', async () => {
    const holder = await holdDataDir(dir);
    try {
      expect(dataDirHolder(dir)).toBe(holder.pid);
      expect(lockedDataDirHolder(dir)).toBe(holder.pid);
      const started = Date.now();
      const failure = await Store.open({ kind: 'embedded', dataDir: dir }).then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(failure).toBeInstanceOf(TelltaleError);
      expect((failure as TelltaleError).code).toBe('UNAVAILABLE');
      expect((failure as TelltaleError).message).toContain(`is in use by another process (pid ${holder.pid})`);
      // refused before the engine tried to open it (which fails with an error of its own, the cause)
      expect((failure as TelltaleError).cause).toBeUndefined();
    } finally {
      const exited = new Promise((resolve) => holder.once('exit', resolve));
      holder.stdin!.end();
      await exited;
    }
    expect(dataDirHolder(dir)).toBeUndefined();
    expect(lockedDataDirHolder(dir)).toBeUndefined();
    const store = await Store.open({ kind: 'embedded', dataDir: dir });
    expect(await store.ping()).toBe(true);
    await store.close();
  });

  it('names no holder for a directory nobody has open', () => {
    expect(dataDirHolder(join(dir, 'missing'))).toBeUndefined();
    expect(lockedDataDirHolder(join(dir, 'missing'))).toBeUndefined();
  });

  it('opens a directory whose stale status file names a live process that holds no lock on it', async () => {
    const stale = mkdtempSync(join(tmpdir(), 'telltale-stale-'));
    try {
      // a crash left the file; its pid now belongs to another live process (here: our parent)
      writeFileSync(join(stale, 'status'), `PID: ${process.ppid}\nStarted at: 2026-01-01 00:00:00\n`);
      expect(dataDirHolder(stale)).toBe(process.ppid);
      expect(lockedDataDirHolder(stale)).toBeUndefined();
      const store = await Store.open({ kind: 'embedded', dataDir: stale });
      expect(await store.ping()).toBe(true);
      await store.close();
    } finally {
      rmSync(stale, { recursive: true, force: true });
    }
  });
});
