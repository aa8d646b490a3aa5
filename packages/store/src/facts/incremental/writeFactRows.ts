import type { ClickHouseClient } from '@clickhouse/client';
import { insertStagedFile, type InsertTransport } from '../../insertTransport.js';
import type { RunFactRows } from './computeRunFacts.js';
import {
  addFactRowLines,
  ingestedField,
  RUN_COLUMNS,
  RUN_STEPS_COLUMNS,
  STEP_COLUMNS,
  type FactRowLines,
} from './factRowLines.js';

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
  const lines: FactRowLines = { steps: [], runSteps: [], runs: [] };
  const ingested: string[] = [];
  for (const { rows, ingestedMaxMs } of facts) {
    addFactRowLines(lines, projectId, rows);
    ingested.push(ingestedField(ingestedMaxMs));
  }
  await writeFactLines(client, transport, lines, ingested);
}

/** Tuples in the rows are arrays (JSONCompactEachRow), not objects. */
const JSON_SETTINGS = 'input_format_json_named_tuples_as_objects = 0';

/** One insert of JSONCompactEachRow lines into `table`: inline in the statement, or from a staging file (InsertTransport). */
async function insertLines(
  client: ClickHouseClient,
  transport: InsertTransport,
  table: string,
  columns: string,
  values: readonly string[],
): Promise<void> {
  if (values.length === 0) return;
  const head = `INSERT INTO ${table} (${columns})`;
  if (transport.kind === 'file')
    await insertStagedFile(
      client,
      transport.dir,
      head,
      'JSONCompactEachRow',
      [Buffer.from(values.join('\n'))],
      JSON_SETTINGS,
    );
  else
    await client.command({
      query: `${head} SETTINGS ${JSON_SETTINGS} FORMAT JSONCompactEachRow\n${values.join('\n')}`,
    });
}

/**
 * Inserts fact rows given as open lines (factRowLines), closing each with
 * one new version; `ingested[i]` is the ingest field of `lines.runs[i]`.
 */
export async function writeFactLines(
  client: ClickHouseClient,
  transport: InsertTransport,
  lines: FactRowLines,
  ingested: readonly string[],
): Promise<void> {
  const version = nextVersion().toString();
  const insert = (table: string, columns: string, values: string[]): Promise<void> =>
    insertLines(client, transport, table, columns, values);
  const close = `,${version}]`;
  await insert(
    'run_step_facts',
    STEP_COLUMNS,
    lines.steps.map((l) => l + close),
  );
  await insert(
    'run_steps',
    RUN_STEPS_COLUMNS,
    lines.runSteps.map((l) => l + close),
  );
  await insert(
    'run_facts',
    RUN_COLUMNS,
    lines.runs.map((l, i) => `${l},${ingested[i]!}${close}`),
  );
}
