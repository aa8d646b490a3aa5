import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ENGINE_MALLOC_CONF, setEngineAllocatorDefaults } from './engineAllocator.js';

/** The compiled side-effect module the CLI imports first (build before testing). */
const BEFORE_ENGINE = fileURLToPath(new URL('../../dist/memory/beforeEngineLoads.js', import.meta.url));
const STORE_PACKAGE = fileURLToPath(new URL('../../../../packages/store/package.json', import.meta.url));

/** In a fresh node: the CLI's first import, then the engine, asked what its allocator runs with. */
function engineDecayMs(env: NodeJS.ProcessEnv): Promise<number> {
  const script = `
    import { createRequire } from 'node:module';
    await import(${JSON.stringify(BEFORE_ENGINE)});
    const { query } = createRequire(${JSON.stringify(STORE_PACKAGE)})('chdb');
    const stats = query('SELECT * FROM system.jemalloc_stats', 'TSV');
    const m = /opt\\.dirty_decay_ms: (\\d+)/.exec(stats);
    console.log(m === null ? 'not found' : m[1]);`;
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--input-type=module', '-e', script],
      { env, timeout: 60_000 },
      (err, stdout, stderr) => {
        if (err) reject(new Error(`${err.message}\n${stderr}`));
        else resolve(Number(stdout.trim().split('\n').pop()));
      },
    );
  });
}

describe('engine allocator defaults', () => {
  it('sets the engine allocator options only when the operator has not', () => {
    const env: NodeJS.ProcessEnv = {};
    setEngineAllocatorDefaults(env);
    expect(env.JE_MALLOC_CONF).toBe(ENGINE_MALLOC_CONF);
    const own: NodeJS.ProcessEnv = { JE_MALLOC_CONF: 'dirty_decay_ms:3000' };
    setEngineAllocatorDefaults(own);
    expect(own.JE_MALLOC_CONF).toBe('dirty_decay_ms:3000');
  });

  it("reaches the embedded engine's allocator when set before it loads, and an operator's value wins", async () => {
    const { JE_MALLOC_CONF: _unset, ...inherited } = process.env;
    expect(await engineDecayMs(inherited)).toBe(500);
    expect(await engineDecayMs({ ...inherited, JE_MALLOC_CONF: 'dirty_decay_ms:3000' })).toBe(3000);
  }, 120_000);
});
