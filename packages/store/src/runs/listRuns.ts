import type { StoreDb } from '../StoreDb.js';
import { EMPTY_PRICE_TABLE, type AnalyticsFilter, type PriceTable } from '../analytics/AnalyticsFilter.js';
import { PRICED_SPANS_CTE, RUNS_CTE, STEP_LEDGER_CTE, filterParams, withClause } from '../sql/sqlParts.js';
import { FACT_RUNS_CTE } from '../facts/factsSql.js';
import { useRunFacts } from '../facts/useRunFacts.js';
import type { Page, RunFilter, RunOutcomeValue, RunSummary } from './RunSummary.js';

interface RunRow {
  run_id: string;
  trace_id: string;
  name: string;
  service: string;
  outcome: RunOutcomeValue;
  start_ns: string;
  duration_ns: string;
  steps: string | number;
  spans: string | number;
  cost_usd: number;
  input_tokens: string | number;
  output_tokens: string | number;
  cached_input_tokens: string | number;
  unpriced_spans: string | number;
  error_type: string;
  session_id: string;
}

/**
 * Phase 1: which runs are on the page (newest first) and how many pass the
 * filters: from the run facts when the filter allows (readsRunFacts), else
 * from the spans, computing only the columns needed to filter and sort.
 * `total` is a window over the grouped runs, so there is no second pass.
 */
function pageIdsSql(runs: string): string {
  return `${runs}
SELECT run_id, count() OVER () AS total
FROM runs
WHERE ({outcome:String} = '' OR outcome = {outcome:String}) AND ${MEMBER_SERVICE_SQL}
ORDER BY run_start DESC, run_id
LIMIT {limit:UInt32} OFFSET {offset:UInt32}`;
}

function countSql(runs: string): string {
  return `${runs}
SELECT count() AS total FROM runs WHERE ({outcome:String} = '' OR outcome = {outcome:String}) AND ${MEMBER_SERVICE_SQL}`;
}

/**
 * The service filter of the runs list: runs in which any span came from the
 * service (a downstream service's spans belong to the caller's run), not
 * only runs whose root did. A run's spans start at or after its first span;
 * the hour's margin allows for clocks of other services running behind.
 */
const MEMBER_SERVICE_SQL = `({memberService:String} = '' OR run_id IN (
    SELECT run_id FROM spans
    WHERE project_id = {projectId:String} AND service_name = {memberService:String}
      AND start_time >= {from:DateTime64(9, 'UTC')} - INTERVAL 1 HOUR))`;

/**
 * Phase 2: the page's runs in full, from the shared run rollup (RUNS_CTE:
 * root, outcome, duration, priced cost without double counting); `runIds`
 * narrows the scan to those runs (bloom-filter index on run_id).
 */
const PAGE_ROWS_SQL = `${withClause(PRICED_SPANS_CTE, RUNS_CTE)}
SELECT
    run_id, trace_id, display_name AS name, service, outcome,
    toString(toUnixTimestamp64Nano(run_start)) AS start_ns,
    toString(run_duration_ns) AS duration_ns,
    steps, span_count AS spans, run_cost AS cost_usd,
    run_input_tokens AS input_tokens, run_output_tokens AS output_tokens, run_cached_input_tokens AS cached_input_tokens,
    unpriced_spans, display_error_type AS error_type, session_id
FROM runs`;

/** Attempt groups per run of the page (the ledger's group starts; RELIABILITY-MATH "Attempt"). */
const ATTEMPT_GROUP_COUNTS_SQL = `${withClause(PRICED_SPANS_CTE, STEP_LEDGER_CTE)}
SELECT run_id, sum(g_start) AS groups FROM step_ledger GROUP BY run_id`;

const MAX_TIME_NS = 4_102_444_800_000_000_000n; // 2100-01-01

function toAnalyticsFilter(f: RunFilter): AnalyticsFilter {
  return {
    projectId: f.projectId,
    fromUnixNano: f.fromUnixNano ?? 0n,
    toUnixNano: f.toUnixNano ?? MAX_TIME_NS,
    ...(f.agent === undefined ? {} : { agent: f.agent }),
    ...(f.session === undefined ? {} : { session: f.session }),
    ...(f.stepName === undefined ? {} : { stepName: f.stepName }),
    ...(f.tool === undefined ? {} : { tool: f.tool }),
    ...(f.model === undefined ? {} : { model: f.model }),
    ...(f.attributes === undefined ? {} : { attributes: f.attributes }),
    ...(f.runId === undefined ? {} : { runIds: [f.runId] }),
    ...(f.recompute === undefined ? {} : { recompute: f.recompute }),
  };
}

/**
 * A page of runs, newest first, and the total matching the filter. Costs use
 * `prices` (the project's resolved table; without one only explicit span
 * costs count).
 *
 * Per-run facts that need more than the rollup (attempt groups now; the loop
 * flag and failure primary cause later) are computed by follow-up queries
 * scoped to the page's run ids, so their cost grows with the page size, not
 * with the window.
 */
export async function listRuns(
  db: StoreDb,
  filter: RunFilter,
  page: Page,
  prices: PriceTable = EMPTY_PRICE_TABLE,
): Promise<{ runs: RunSummary[]; total: number }> {
  const { client } = db;
  const analyticsFilter = toAnalyticsFilter(filter);
  const params = {
    ...filterParams(analyticsFilter, prices),
    outcome: filter.outcome ?? '',
    memberService: filter.service ?? '',
  };
  // one run by id reads its spans directly (bloom filter), so it is found even before it is finalised
  const facts = filter.runId === undefined && (await useRunFacts(db.runFacts, analyticsFilter));
  const runs = facts ? withClause(FACT_RUNS_CTE) : withClause(PRICED_SPANS_CTE, RUNS_CTE);
  const idsResult = await client.query({
    query: pageIdsSql(runs),
    format: 'JSONEachRow',
    query_params: { ...params, limit: page.limit, offset: page.offset },
  });
  const ids = await idsResult.json<{ run_id: string; total: string | number }>();
  if (ids.length === 0) {
    if (page.offset === 0) return { runs: [], total: 0 };
    const countResult = await client.query({ query: countSql(runs), format: 'JSONEachRow', query_params: params });
    const [count] = await countResult.json<{ total: string | number }>();
    return { runs: [], total: Number(count?.total ?? 0) };
  }
  const pageParams = filterParams({ ...analyticsFilter, runIds: ids.map((r) => r.run_id) }, prices);
  const [rowsResult, groupsResult] = await Promise.all([
    client.query({ query: PAGE_ROWS_SQL, format: 'JSONEachRow', query_params: pageParams }),
    client.query({ query: ATTEMPT_GROUP_COUNTS_SQL, format: 'JSONEachRow', query_params: pageParams }),
  ]);
  const rows = new Map((await rowsResult.json<RunRow>()).map((r) => [r.run_id, r]));
  const groups = new Map(
    (await groupsResult.json<{ run_id: string; groups: string | number }>()).map((r) => [r.run_id, Number(r.groups)]),
  );
  const summaries: RunSummary[] = [];
  for (const { run_id } of ids) {
    const row = rows.get(run_id);
    if (row !== undefined) summaries.push(toRunSummary(row, groups.get(run_id) ?? 0));
  }
  return { runs: summaries, total: Number(ids[0]?.total ?? 0) };
}

function toRunSummary(r: RunRow, attemptGroups: number): RunSummary {
  return {
    runId: r.run_id,
    traceId: r.trace_id,
    name: r.name,
    service: r.service,
    outcome: r.outcome,
    startTimeUnixNano: r.start_ns,
    durationNs: r.duration_ns,
    steps: Number(r.steps),
    spans: Number(r.spans),
    attemptGroups,
    costUsd: Number(r.cost_usd),
    inputTokens: Number(r.input_tokens),
    outputTokens: Number(r.output_tokens),
    cachedInputTokens: Number(r.cached_input_tokens),
    unpricedSpans: Number(r.unpriced_spans),
    errorType: r.error_type,
    sessionId: r.session_id,
  };
}
