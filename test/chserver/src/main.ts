#!/usr/bin/env node
import { mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { ChdbEngine } from './ChdbEngine.js';
import { ChServer } from './ChServer.js';
import { EXIT_PORT_IN_USE } from './exitCodes.js';

const ArgsSchema = z.object({
  'data-dir': z.string().min(1),
  port: z.coerce.number().int().min(0).max(65_535).default(0),
  host: z.string().min(1).default('127.0.0.1'),
  'max-query-bytes': z.coerce
    .number()
    .int()
    .positive()
    .default(64 * 1024 * 1024),
  'max-data-bytes': z.coerce
    .number()
    .int()
    .positive()
    .default(1024 * 1024 * 1024),
  'max-queued': z.coerce.number().int().positive().default(1_000),
  'parent-pid': z.coerce.number().int().positive().optional(),
});

const USAGE = `usage: node dist/main.js --data-dir DIR [--port 0] [--host 127.0.0.1]
  [--max-query-bytes N] [--max-data-bytes N] [--max-queued N] [--parent-pid PID]
Prints "listening http://HOST:PORT" on stdout once it serves.`;

function log(line: string): void {
  process.stderr.write(`chserver[${process.pid}] ${line}\n`);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      'data-dir': { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
      'max-query-bytes': { type: 'string' },
      'max-data-bytes': { type: 'string' },
      'max-queued': { type: 'string' },
      'parent-pid': { type: 'string' },
    },
    strict: true,
  });
  const parsed = ArgsSchema.safeParse(values);
  if (!parsed.success) {
    process.stderr.write(`${parsed.error.message}\n${USAGE}\n`);
    process.exit(2);
  }
  const args = parsed.data;
  const dataDir = resolve(args['data-dir']);
  mkdirSync(dataDir, { recursive: true });
  const engine = await ChdbEngine.open(dataDir, { maxQueued: args['max-queued'], log });
  // inside the data directory, emptied at each start (the engine holds the directory now): a killed server (the fault tests kill it) leaves nothing elsewhere
  const tmpDir = join(dataDir, 'chserver-tmp');
  rmSync(tmpDir, { recursive: true, force: true });
  mkdirSync(tmpDir);
  const server = new ChServer(engine, {
    tmpDir,
    log,
    maxQueryBytes: args['max-query-bytes'],
    maxDataBytes: args['max-data-bytes'],
  });

  let stopping = false;
  const shutdown = async (code: number): Promise<never> => {
    if (!stopping) {
      stopping = true;
      const deadline = setTimeout(() => process.exit(1), 15_000);
      deadline.unref();
      await server.close().catch((err: unknown) => log(`closing the server: ${String(err)}`));
      await engine.close().catch((err: unknown) => log(`closing chDB: ${String(err)}`));
      rmSync(tmpDir, { recursive: true, force: true });
    }
    process.exit(code);
  };

  try {
    const address = await server.listen(args.port, args.host);
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    process.stdout.write(`listening http://${host}:${address.port}\n`);
  } catch (err) {
    const inUse = (err as NodeJS.ErrnoException).code === 'EADDRINUSE';
    log(inUse ? `port ${args.port} is in use` : `cannot listen: ${String(err)}`);
    await engine.close();
    rmSync(tmpDir, { recursive: true, force: true });
    process.exit(inUse ? EXIT_PORT_IN_USE : 1);
  }

  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => void shutdown(0));
  const parent = args['parent-pid'];
  if (parent !== undefined) {
    // Test infrastructure: never outlive the test process that started us.
    setInterval(() => {
      try {
        process.kill(parent, 0);
      } catch {
        log(`parent ${parent} is gone; exiting`);
        void shutdown(0);
      }
    }, 1_000).unref();
  }
}

main().catch((err: unknown) => {
  log(`failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  process.exit(1);
});
