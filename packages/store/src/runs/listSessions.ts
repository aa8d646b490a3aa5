import type { StoreDb } from '../StoreDb.js';
import { EMPTY_PRICE_TABLE, type AnalyticsFilter, type PriceTable } from '../analytics/AnalyticsFilter.js';
import { PRICED_SPANS_CTE, RUNS_CTE, filterParams, withClause } from '../sql/sqlParts.js';
import { FACT_RUNS_CTE } from '../facts/factsSql.js';
import { useRunFacts } from '../facts/useRunFacts.js';
import type { Page } from './RunSummary.js';
import type { SessionFilter, SessionSummary } from './SessionSummary.js';

interface SessionRow {
  session_id: string;
  runs: string | number;
  success_runs: string | number;
  failure_runs: string | number;
  incomplete_runs: string | number;
  first_start_ns: string;
  last_end_ns: string;
  cost_usd: number;
  input_tokens: string | number;
  output_tokens: string | number;
  services: string[];
  agents: string[];
  total: string | number;
}

/** Sessions of the window's runs (run facts or spans, as the runs list), most recently active first. */
function sessionsSql(runs: string): string {
  return `${runs}
SELECT session_id, count() AS runs,
    countIf(outcome = 'success') AS success_runs, countIf(outcome = 'failure') AS failure_runs, countIf(outcome = 'incomplete') AS incomplete_runs,
    toString(toUnixTimestamp64Nano(min(run_start))) AS first_start_ns, toString(toUnixTimestamp64Nano(max(run_end))) AS last_end_ns,
    sum(run_cost) AS cost_usd, sum(run_input_tokens) AS input_tokens, sum(run_output_tokens) AS output_tokens,
    arraySort(groupUniqArray(service)) AS services, arraySort(arrayFilter(a -> a != '', groupUniqArray(agent))) AS agents,
    count() OVER () AS total
FROM runs
WHERE session_id != ''
GROUP BY session_id
ORDER BY max(run_start) DESC, session_id
LIMIT {limit:UInt32} OFFSET {offset:UInt32}`;
}

const MAX_TIME_NS = 4_102_444_800_000_000_000n; // 2100-01-01

/**
 * A page of sessions (runs grouped by `session_id`), most recently active
 * first, and how many sessions the window has. A session counts the runs
 * that start in the window.
 */
export async function listSessions(
  db: StoreDb,
  filter: SessionFilter,
  page: Page,
  prices: PriceTable = EMPTY_PRICE_TABLE,
): Promise<{ sessions: SessionSummary[]; total: number }> {
  const { client } = db;
  const analyticsFilter: AnalyticsFilter = {
    projectId: filter.projectId,
    fromUnixNano: filter.fromUnixNano ?? 0n,
    toUnixNano: filter.toUnixNano ?? MAX_TIME_NS,
    ...(filter.service === undefined ? {} : { service: filter.service }),
  };
  const runs = (await useRunFacts(db.runFacts, analyticsFilter))
    ? withClause(FACT_RUNS_CTE)
    : withClause(PRICED_SPANS_CTE, RUNS_CTE);
  const result = await client.query({
    query: sessionsSql(runs),
    format: 'JSONEachRow',
    query_params: { ...filterParams(analyticsFilter, prices), limit: page.limit, offset: page.offset },
  });
  const rows = await result.json<SessionRow>();
  return {
    sessions: rows.map((r) => ({
      sessionId: r.session_id,
      runs: Number(r.runs),
      successRuns: Number(r.success_runs),
      failureRuns: Number(r.failure_runs),
      incompleteRuns: Number(r.incomplete_runs),
      firstStartUnixNano: r.first_start_ns,
      lastEndUnixNano: r.last_end_ns,
      costUsd: Number(r.cost_usd),
      inputTokens: Number(r.input_tokens),
      outputTokens: Number(r.output_tokens),
      services: r.services,
      agents: r.agents,
    })),
    total: Number(rows[0]?.total ?? 0),
  };
}
