import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const STORE = new URL('../../../packages/store/dist/index.js', import.meta.url).href;
const STORE_TESTING = new URL('../../../packages/store/dist/testing/index.js', import.meta.url).href;

/** Rows and distinct spans per run, as stored: a run sent once and stored once has rows === spans. */
export type RunCounts = Map<string, { rows: number; spans: number }>;

const SQL = `SELECT run_id, count() AS rows, uniqExact(span_id) AS spans FROM spans GROUP BY run_id FORMAT JSONEachRow`;

/**
 * Counts what an embedded data directory holds, from a child process (chDB
 * binds one data directory per process, and the test process may hold
 * another). No FINAL: a duplicate that was inserted shows up.
 */
export async function storedRunCounts(dataDir: string): Promise<RunCounts> {
  const script = `
    import { Store } from ${JSON.stringify(STORE)};
    import { StoreInspector } from ${JSON.stringify(STORE_TESTING)};
    const store = await Store.open({ kind: 'embedded', dataDir: process.argv[1] });
    const rows = await new StoreInspector(store).runSpanCounts();
    process.stdout.write(JSON.stringify(rows.map((r) => ({ run_id: r.runId, rows: r.rows, spans: r.spans }))));
    await store.close();
  `;
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script, dataDir], {
    maxBuffer: 64 << 20,
  });
  return toCounts(JSON.parse(stdout) as { run_id: string; rows: string | number; spans: string | number }[]);
}

export function toCounts(
  rows: readonly { run_id: string; rows: string | number; spans: string | number }[],
): RunCounts {
  return new Map(rows.map((r) => [r.run_id, { rows: Number(r.rows), spans: Number(r.spans) }]));
}

export const RUN_COUNTS_SQL = SQL.replace(' FORMAT JSONEachRow', '');
