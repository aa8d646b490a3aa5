import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, totalmem } from 'node:os';
import type { Store } from '@telltale/store';
import { StoreInspector } from '@telltale/store/testing';

export interface MachineFacts {
  nproc: number;
  cpuModel: string;
  memoryGiB: number;
  node: string;
  /** The chdb npm package and the ClickHouse inside it. */
  chdb: string;
  clickhouse: string;
}

function chdbPackageVersion(): string {
  try {
    // chdb is @telltale/store's dependency: resolve it from there.
    const storeEntry = createRequire(import.meta.url).resolve('@telltale/store');
    const pkg = createRequire(storeEntry).resolve('chdb/package.json');
    return (JSON.parse(readFileSync(pkg, 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

export async function machineFacts(store: Store): Promise<MachineFacts> {
  const version = await new StoreInspector(store).engineVersion();
  return {
    nproc: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    memoryGiB: totalmem() / 2 ** 30,
    node: process.version,
    chdb: chdbPackageVersion(),
    clickhouse: version,
  };
}

/** 1-minute load average. */
export function loadAverage(): number {
  return loadavg()[0] ?? 0;
}

/**
 * Waits (polling every `pollMs`) until the 1-minute load average is at most
 * `max`, for at most `maxWaitMs`. Returns what it saw; the caller records it.
 */
export async function waitForQuiet(
  max: number,
  maxWaitMs: number,
  log: (line: string) => void,
  pollMs = 30_000,
): Promise<{ waitedMs: number; loadAverage: number; quiet: boolean }> {
  const started = Date.now();
  let load = loadAverage();
  while (load > max && Date.now() - started < maxWaitMs) {
    log(`load average ${load.toFixed(2)} > ${max}: waiting (${Math.round((Date.now() - started) / 1000)} s so far)`);
    await new Promise((resolve) => setTimeout(resolve, pollMs));
    load = loadAverage();
  }
  return { waitedMs: Date.now() - started, loadAverage: load, quiet: load <= max };
}
