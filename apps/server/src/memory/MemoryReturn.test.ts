import { execFile } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadLibc } from './libc.js';
import { MemoryReturn } from './MemoryReturn.js';

/** The compiled modules (build before testing): the child processes load them as the server does. */
const DIST = fileURLToPath(new URL('../../dist/memory/', import.meta.url));
const STORE_PACKAGE = fileURLToPath(new URL('../../../../packages/store/package.json', import.meta.url));

function runScript<T>(script: string): Promise<T> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--expose-gc', '--input-type=module', '-e', script],
      { timeout: 60_000 },
      (err, stdout, stderr) => {
        if (err) reject(new Error(`${err.message}\n${stderr}`));
        else resolve(JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as T);
      },
    );
  });
}

const PRELUDE = `
  import { readFileSync } from 'node:fs';
  import { createRequire } from 'node:module';
  const { loadLibc } = await import(${JSON.stringify(`${DIST}libc.js`)});
  const { MemoryReturn } = await import(${JSON.stringify(`${DIST}MemoryReturn.js`)});
  const status = (field) => Number(new RegExp(field + ':\\\\s+(\\\\d+)').exec(readFileSync('/proc/self/status', 'utf8'))[1]) / 1024;
  const memory = new MemoryReturn({ libc: await loadLibc(), intervalMs: 60_000, onLibraryError: (e) => { throw e; } });`;

describe('MemoryReturn', () => {
  it('hands the pages of freed heap buffers back to the system, which freeing alone does not', async () => {
    // 3,000 buffers of 64 KiB (under the allocator's mapping threshold: they come from its heap) between small ones that stay
    const m = await runScript<{ held: number; freed: number; trimmed: number; trims: number }>(`${PRELUDE}
      const kept = [];
      let large = [];
      for (let i = 0; i < 3000; i++) {
        large.push(Buffer.allocUnsafeSlow(64 * 1024).fill(1));
        kept.push(Buffer.allocUnsafeSlow(5000).fill(2));
      }
      const held = status('RssAnon');
      large = undefined;
      gc();
      await new Promise((r) => setTimeout(r, 200));
      gc();
      const freed = status('RssAnon');
      memory.trim();
      console.log(JSON.stringify({ held, freed, trimmed: status('RssAnon'), trims: memory.stats.trims, kept: kept.length }));`);
    expect(m.held).toBeGreaterThan(150);
    expect(m.freed).toBeGreaterThan(m.held - 40);
    expect(m.trimmed).toBeLessThan(m.freed - 120);
    expect(m.trims).toBe(1);
  });

  it("drops the engine library's pages set-up touched, and the engine goes on answering", async () => {
    const m = await runScript<{ before: number; dropped: number; after: number; answer: string }>(`${PRELUDE}
      const chdb = createRequire(${JSON.stringify(STORE_PACKAGE)})('chdb');
      const session = new chdb.Session();
      session.query('CREATE TABLE t (n UInt64) ENGINE = MergeTree ORDER BY n');
      session.query('INSERT INTO t SELECT number FROM numbers(100000)');
      const before = status('RssFile');
      const dropped = await memory.dropLibraryPages() / 1024 / 1024;
      const after = status('RssFile');
      const answer = session.query('SELECT sum(n), uniqExact(n) FROM t', 'TSV').trim();
      session.cleanup();
      console.log(JSON.stringify({ before, dropped, after, answer }));`);
    expect(m.dropped).toBeGreaterThan(50);
    expect(m.after).toBeLessThan(m.before - 50);
    expect(m.answer).toBe('4999950000\t100000');
  });

  it('reaches the C library here, and counts its trims and those that gave memory back', async () => {
    const libc = await loadLibc();
    expect(libc).toBeDefined();
    const answers = [true, false, true];
    const memory = new MemoryReturn({
      libc: { mallocTrim: () => answers.shift() ?? false, dontNeed: () => undefined },
      intervalMs: 1000,
    });
    for (let i = 0; i < 3; i++) memory.trim();
    expect(memory.stats).toMatchObject({ trims: 3, released: 2 });
  });

  it('stops dropping library pages after a failure, and says why', async () => {
    const libc = await loadLibc();
    // an address that is not page-aligned: the kernel refuses it
    expect(() => libc!.dontNeed(1n, 4096n)).toThrow(/MADV_DONTNEED\) failed: errno 22/);
    const errors: Error[] = [];
    let calls = 0;
    const memory = new MemoryReturn({
      libc: {
        mallocTrim: () => false,
        dontNeed: (start) => {
          calls += 1;
          libc!.dontNeed(start + 1n, 4096n);
        },
      },
      intervalMs: 1000,
      // node's own binary: mapped in every process, with clean code pages
      library: new RegExp(`^${realpathSync(process.execPath).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`),
      onLibraryError: (err) => errors.push(err),
    });
    expect(await memory.dropLibraryPages()).toBe(0);
    expect(errors.map((e) => e.message)).toEqual([expect.stringMatching(/errno 22/)]);
    expect(await memory.dropLibraryPages()).toBe(0);
    expect(calls).toBe(1);
    expect(memory.stats.libraryBytes).toBe(0);
  });
});
