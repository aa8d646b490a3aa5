import { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { ClickHouseClient } from '@clickhouse/client';
import { insertStagedFile, type InsertTransport } from '../../insertTransport.js';
import type { RunFactRows } from './computeRunFacts.js';
import {
  FactRowsWriter,
  rowsOf,
  RUN_COLUMNS,
  RUN_STEPS_COLUMNS,
  stampRows,
  STEP_COLUMNS,
  type FactRowBytes,
  type RunRows,
  type TableRows,
} from './factRowBytes.js';

/**
 * The newest version so far: nanoseconds now (as the SQL finaliser's
 * `now64(9)`, to a fraction of a microsecond, so a later refinalisation by
 * either path wins), and increasing within a process.
 */
let lastVersion = 0n;
function nextVersion(): bigint {
  const now = BigInt(Math.round((performance.timeOrigin + performance.now()) * 1_000)) * 1_000n;
  lastVersion = now > lastVersion ? now : lastVersion + 1n;
  return lastVersion;
}

/** Fact rows to write: a FactRowBytes and which of its runs' rows. */
export interface ChosenFactRows {
  rows: FactRowBytes;
  runs: readonly RunRows[];
}

/**
 * Inserts computed facts like the SQL finaliser does: step facts and run
 * steps first, run facts last (the commit mark a catch-up checks), each a
 * new version of its rows. `ingestedMaxMs` (epoch ms) per run: not before
 * the ingest time of any of its spans.
 */
export async function writeFactRows(
  client: ClickHouseClient,
  transport: InsertTransport,
  projectId: string,
  facts: ReadonlyArray<{ rows: RunFactRows; ingestedMaxMs: number }>,
): Promise<void> {
  if (facts.length === 0) return;
  const writer = new FactRowsWriter();
  const runs = facts.map(({ rows, ingestedMaxMs }) => writer.add(projectId, rows, ingestedMaxMs));
  await writeChosenRows(client, transport, [{ rows: writer.finish(), runs }]);
}

/**
 * Inserts the chosen runs' fact rows, each stamped with one new version
 * (and, given `ingestedMs`, run_facts rows with that ingest time): one
 * RowBinary insert per table, the rows sent as they lie in their buffers.
 */
export async function writeChosenRows(
  client: ClickHouseClient,
  transport: InsertTransport,
  chosen: readonly ChosenFactRows[],
  ingestedMs?: number,
): Promise<void> {
  const version = nextVersion();
  const parts = (table: 'steps' | 'runSteps' | 'runs'): Uint8Array[] => {
    const out: Uint8Array[] = [];
    for (const { rows, runs } of chosen) {
      const t: TableRows = rows[table];
      for (const run of runs) {
        const [from, end] = run[table];
        if (from === end) continue;
        stampRows(t, from, end, version, table === 'runs' ? ingestedMs : undefined);
        out.push(rowsOf(t, from, end));
      }
    }
    return out;
  };
  await insertRows(client, transport, 'run_step_facts', STEP_COLUMNS, parts('steps'));
  await insertRows(client, transport, 'run_steps', RUN_STEPS_COLUMNS, parts('runSteps'));
  await insertRows(client, transport, 'run_facts', RUN_COLUMNS, parts('runs'));
}

/**
 * Every fact row of a run has its own key, so a batch has nothing to
 * collapse on insert; a later version replaces it when parts merge.
 */
const INSERT_SETTINGS = 'optimize_on_insert = 0';

/** One RowBinary insert of `parts` into `table`: from a staging file, or as the request body (InsertTransport). */
async function insertRows(
  client: ClickHouseClient,
  transport: InsertTransport,
  table: string,
  columns: string,
  parts: readonly Uint8Array[],
): Promise<void> {
  if (parts.length === 0) return;
  const head = `INSERT INTO ${table} (${columns})`;
  if (transport.kind === 'file') {
    await insertStagedFile(client, transport.dir, head, 'RowBinary', parts, INSERT_SETTINGS);
    return;
  }
  const result = await client.exec({
    query: `${head} FORMAT RowBinary`,
    values: Readable.from(parts, { objectMode: false }),
    clickhouse_settings: { optimize_on_insert: 0 },
  });
  // nothing useful comes back: drain it, so the keep-alive socket is released rather than closed
  result.stream.resume();
  await finished(result.stream);
}
