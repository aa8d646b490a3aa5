import { DEFAULT_LOOP_THRESHOLDS, type Analytics } from '@telltale/analytics';
import { MIGRATIONS, queryAgentRunStats, queryFailureCauses, queryLoopRate, queryStepGroupStats, type AnalyticsFilter, type Store } from '@telltale/store';
import type { BenchCase, ReferencePart } from './BenchCase.js';
import type { BenchContext } from './BenchContext.js';
import type { LooseRow } from './compareRows.js';
import { PLAIN_UNPRICED } from './plainCostSql.js';
import { PLAIN_ROOTS, RAW_COST, arrayLedger, traceSpansSql } from './plainSqlParts.js';
import { plainSpanLatency } from './plainLatencySql.js';
import { COST_INTERVAL_SECONDS } from './costCases.js';
import { PAGE_SIZE } from './runCases.js';
import { PROTO_DB, PROTO_GRANULARITY, RUN_ROLLUP_DDL, RUN_ROLLUP_MV_DDL, RUN_STEP_ROLLUP_DDL, RUN_STEP_ROLLUP_MV_DDL, protoSpansDdl } from './prototypeSchema.js';
import {
  FACTS_AGENT_RUNS,
  FACTS_CURVE,
  FACTS_FAILURES,
  FACTS_LOOP_RATE,
  FACTS_STEP_STATS,
  FILL_RUN_FACTS,
  FILL_RUN_STEP_FACTS,
  RUN_CAUSE_FACTS_DDL,
  RUN_FACTS_DDL,
  RUN_LOOP_FACTS_DDL,
  RUN_STEP_FACTS_DDL,
} from './prototypeFacts.js';
import { LOOP_INTERVAL_SECONDS } from './loopCases.js';
import { PROTO_AGENT_RUNS, PROTO_COST_SERIES, PROTO_CURVE, PROTO_RUN_COST, PROTO_RUN_PAGE, PROTO_STEP_STATS } from './prototypeSql.js';

/** Rows per insert block when copying spans into the scratch table (the materialized view sees blocks this size, like collector batches). */
const COPY_BLOCK_ROWS = 50_000;

/** FNV-1a of the scratch DDL, kept as the scratch database's comment: a changed schema is rebuilt. */
function schemaVersion(ddl: readonly string[]): string {
  const text = ddl.join('\n');
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return `v-${h.toString(16)}`;
}

async function count(store: Store, query: string, projectId: string): Promise<number> {
  const result = await store.client.query({ query, format: 'JSONEachRow', query_params: { projectId } });
  const [row] = await result.json<{ n: string }>();
  return Number(row?.n ?? 0);
}

/**
 * Builds the scratch schema unless it already holds the project's spans:
 * copies them into `bench_proto.spans` in collector-sized blocks (the
 * materialized view fills the run rollup block by block), then merges both.
 * Then runs the run-facts finaliser once over the window. Returns both wall
 * times (0 when reused).
 */
export async function ensurePrototypeSchema(
  store: Store,
  analytics: Analytics,
  filter: AnalyticsFilter,
  /** The baselines' parameters (window and prices) for the finaliser. */
  params: Record<string, unknown>,
  log: (line: string) => void,
): Promise<{ copyMs: number; finalizeMs: number }> {
  const c = store.client;
  const projectId = filter.projectId;
  const spansDdl = MIGRATIONS.find((m) => m.name === 'spans')?.statements[0];
  if (spansDdl === undefined) throw new Error('no spans migration');
  const ddl = [protoSpansDdl(spansDdl), RUN_ROLLUP_DDL, RUN_ROLLUP_MV_DDL, RUN_STEP_ROLLUP_DDL, RUN_STEP_ROLLUP_MV_DDL, RUN_FACTS_DDL, RUN_STEP_FACTS_DDL, RUN_LOOP_FACTS_DDL, RUN_CAUSE_FACTS_DDL];
  const version = schemaVersion(ddl);
  const current = await store.client.query({
    query: `SELECT comment FROM system.databases WHERE name = {db:String}`,
    format: 'JSONEachRow',
    query_params: { db: PROTO_DB },
  });
  const [db] = await current.json<{ comment: string }>();
  if (db !== undefined && db.comment !== version) {
    log(`prototypes: the scratch schema changed; rebuilding ${PROTO_DB}`);
    await c.command({ query: `DROP DATABASE ${PROTO_DB}` });
  }
  // The version is our own hex digest (DDL does not take query parameters).
  await c.command({ query: `CREATE DATABASE IF NOT EXISTS ${PROTO_DB} COMMENT '${version}'` });
  for (const statement of ddl) await c.command({ query: statement });
  const facts = Math.min(
    await count(store, `SELECT count() AS n FROM ${PROTO_DB}.run_facts WHERE project_id = {projectId:String}`, projectId),
    await count(store, `SELECT count() AS n FROM ${PROTO_DB}.run_step_facts WHERE project_id = {projectId:String}`, projectId),
  );
  const want = await count(store, 'SELECT count() AS n FROM default.spans WHERE project_id = {projectId:String}', projectId);
  const have = await count(store, `SELECT count() AS n FROM ${PROTO_DB}.spans WHERE project_id = {projectId:String}`, projectId);
  if (want === have && facts > 0) return { copyMs: 0, finalizeMs: 0 };
  log(`prototypes: copying ${want.toLocaleString('en')} spans of ${projectId} into ${PROTO_DB}.spans (the view fills the run rollup)`);
  await c.command({ query: `TRUNCATE TABLE ${PROTO_DB}.spans` });
  await c.command({ query: `TRUNCATE TABLE ${PROTO_DB}.run_rollup` });
  await c.command({ query: `TRUNCATE TABLE ${PROTO_DB}.run_step_rollup` });
  const started = performance.now();
  await c.command({
    query: `INSERT INTO ${PROTO_DB}.spans SELECT * FROM default.spans WHERE project_id = {projectId:String}`,
    query_params: { projectId },
    clickhouse_settings: { max_insert_block_size: String(COPY_BLOCK_ROWS), min_insert_block_size_rows: String(COPY_BLOCK_ROWS), min_insert_block_size_bytes: '0' },
  });
  const copyMs = performance.now() - started;
  await c.command({ query: `OPTIMIZE TABLE ${PROTO_DB}.spans FINAL` });
  await c.command({ query: `OPTIMIZE TABLE ${PROTO_DB}.run_rollup FINAL` });
  await c.command({ query: `OPTIMIZE TABLE ${PROTO_DB}.run_step_rollup FINAL` });
  log(`prototypes: copied in ${(copyMs / 1000).toFixed(0)} s`);
  await c.command({ query: `TRUNCATE TABLE ${PROTO_DB}.run_facts` });
  await c.command({ query: `TRUNCATE TABLE ${PROTO_DB}.run_step_facts` });
  await c.command({ query: `TRUNCATE TABLE ${PROTO_DB}.run_loop_facts` });
  await c.command({ query: `TRUNCATE TABLE ${PROTO_DB}.run_cause_facts` });
  const finalizeStarted = performance.now();
  for (const fill of [FILL_RUN_FACTS, FILL_RUN_STEP_FACTS]) await c.command({ query: fill, query_params: params });
  // Loop flags and causes: today's per-run queries, run once, stored.
  const [flags, causes] = [await analytics.runLoopFlags(filter), await analytics.runCauses(filter)];
  await c.insert({
    table: `${PROTO_DB}.run_loop_facts`,
    format: 'JSONEachRow',
    values: flags.map((f) => ({ project_id: projectId, run_id: f.runId, kinds: f.kinds, detections: f.detections, wasted_ns: f.wastedNs, wasted_cost: f.wastedCostUsd })),
  });
  await c.insert({ table: `${PROTO_DB}.run_cause_facts`, format: 'JSONEachRow', values: causes.map((r) => ({ project_id: projectId, run_id: r.runId, cause: r.cause })) });
  const finalizeMs = performance.now() - finalizeStarted;
  log(`prototypes: run facts finalised in ${(finalizeMs / 1000).toFixed(1)} s`);
  return { copyMs, finalizeMs };
}

const RETRY_COST = `, if(g_start, 0, if(isNaN(${RAW_COST} AS c), 0, c)) AS retry_cost`;
const COST_COLS = ['cost_usd', 'input_tokens', 'output_tokens', 'cached_input_tokens', 'model'];

/** Reliability's step table with the array ledger instead of window functions (read from `spans`, like the store). */
export const ARRAY_LEDGER_STEP_STATS = `WITH ${PLAIN_ROOTS}, ${arrayLedger(COST_COLS, RETRY_COST)}
SELECT r.agent AS agent, r.service AS service, l.step_name AS step_name,
    sum(l.g_start) AS groups, sumIf(l.g_start, NOT r.failed) AS groups_in_success, sum(l.g_first_ok) AS first_ok, sum(l.g_rec) AS recovered,
    count() AS attempts, countIf(l.ok) AS ok_attempts, sumIf(l.duration_ns, NOT l.g_start) AS retry_extra_ns, sum(l.retry_cost) AS retry_extra_cost
FROM ledger AS l
INNER JOIN roots AS r ON r.run_id = l.run_id
GROUP BY agent, service, step_name`;

/**
 * The prototype fixes as cases: `ours` is today's facade or store call
 * ("before"), `plain` the prototype ("after"), `reference` the store's rows,
 * so the after-numbers are checked against today's.
 */
export function prototypeCases(ctx: BenchContext, current: readonly BenchCase[]): BenchCase[] {
  const { store, filter, prices, sql, sample } = ctx;
  const find = (name: string): BenchCase => {
    const c = current.find((x) => x.name === name);
    if (c === undefined) throw new Error(`no case ${name}`);
    return c;
  };
  const reliability = find('reliability');
  const granularity = { method: 'Store#getTraceSpans', kind: 'lookup', maxRatio: undefined } as const;
  const proto = (base: BenchCase, name: string, after: () => Promise<Record<string, LooseRow[]>>, ours = base.ours, reference = base.reference): BenchCase => ({
    ...base,
    name,
    targetMs: 500,
    maxRatio: undefined,
    plainIsLowerBound: false,
    ours,
    plain: after,
    ...(reference === undefined ? {} : { reference }),
  });
  const part = async (name: string): Promise<Record<string, ReferencePart>> => {
    const all = await reliability.reference?.();
    const only = all?.[name];
    if (only === undefined) throw new Error(`reliability has no reference part ${name}`);
    return { [name]: only };
  };
  return [
    proto(reliability, 'reliability steps: array ledger (no window functions)', async () => ({ steps: await sql(ARRAY_LEDGER_STEP_STATS) }),
      () => queryStepGroupStats(store.client, filter, prices), () => part('steps')),
    proto(reliability, 'reliability agents: run rollup', async () => ({ agents: await sql(PROTO_AGENT_RUNS) }),
      () => queryAgentRunStats(store.client, filter, prices), () => part('agents')),
    proto(reliability, 'reliability steps: run and (run, step) rollups', async () => ({ steps: await sql(PROTO_STEP_STATS) }),
      () => queryStepGroupStats(store.client, filter, prices), () => part('steps')),
    proto(reliability, 'reliability: run and (run, step) rollups', async () => {
      const [steps, agents] = await Promise.all([sql(PROTO_STEP_STATS), sql(PROTO_AGENT_RUNS)]);
      return { steps, agents };
    }),
    proto(reliability, 'reliability: run facts finalised once per run', async () => {
      const [steps, agents] = await Promise.all([sql(FACTS_STEP_STATS), sql(FACTS_AGENT_RUNS)]);
      return { steps, agents };
    }),
    proto(find('compoundingCurve'), 'compoundingCurve: run facts finalised once per run', async () => ({ curve: await sql(FACTS_CURVE) })),
    proto(find(`loopRate(${LOOP_INTERVAL_SECONDS} s)`), 'loopRate: loop flags finalised once per run', async () => ({
      buckets: await sql(FACTS_LOOP_RATE, { intervalMs: LOOP_INTERVAL_SECONDS * 1000 }),
    }), undefined, async () => ({
      buckets: {
        keys: ['bucket_ms'],
        values: ['runs', 'looping'],
        rows: (await queryLoopRate(store.client, filter, prices, DEFAULT_LOOP_THRESHOLDS, LOOP_INTERVAL_SECONDS)).map((b) => ({ bucket_ms: b.bucketStartMs, runs: b.runs, looping: b.loopingRuns })),
      },
    })),
    proto(find('failures'), 'failures: causes finalised once per run', async () => ({ causes: await sql(FACTS_FAILURES) }), undefined, async () => ({
      causes: {
        keys: ['cause'],
        values: ['runs'],
        rows: Object.entries(await queryFailureCauses(store.client, filter, prices, DEFAULT_LOOP_THRESHOLDS)).filter(([, runs]) => runs > 0).map(([cause, runs]) => ({ cause, runs })),
      },
    })),
    proto(find('compoundingCurve'), 'compoundingCurve: run rollup', async () => ({ curve: await sql(PROTO_CURVE) })),
    proto(find('cost'), 'cost: run rollup', async () => {
      const [runs, unpriced] = await Promise.all([sql(PROTO_RUN_COST), sql(PLAIN_UNPRICED)]);
      return { runs, unpriced };
    }),
    proto(find(`costSeries(${COST_INTERVAL_SECONDS} s)`), 'costSeries: run rollup', async () => ({
      buckets: await sql(PROTO_COST_SERIES, { intervalMs: COST_INTERVAL_SECONDS * 1000 }),
    })),
    proto(find(`listRuns (first ${PAGE_SIZE})`), 'listRuns: run rollup', async () => ({
      page: (await sql(PROTO_RUN_PAGE, { limit: PAGE_SIZE })).map((r, rank) => ({ ...r, rank })),
    })),
    {
      ...granularity,
      name: `trace by id (its SQL): index_granularity ${PROTO_GRANULARITY}`,
      targetMs: 25,
      ours: () => sql(traceSpansSql('default.spans'), { traceId: sample.traceId }),
      plain: async () => ({ spans: await sql(traceSpansSql(`${PROTO_DB}.spans`), { traceId: sample.traceId }) }),
      reference: async () => ({ spans: { keys: ['span_id'], values: ['duration_ns'], rows: await sql(traceSpansSql('default.spans'), { traceId: sample.traceId }) } }),
    },
    {
      ...granularity,
      name: `its cost: step percentiles SQL on index_granularity ${PROTO_GRANULARITY}`,
      targetMs: undefined,
      ours: () => sql(plainSpanLatency('step')),
      plain: async () => ({ groups: await sql(plainSpanLatency('step').replace('FROM spans', `FROM ${PROTO_DB}.spans`)) }),
      reference: async () => ({ groups: { keys: ['key'], values: ['n', 'max_ns'], rows: await sql(plainSpanLatency('step')) } }),
    },
  ];
}
