import type { LoopOrder } from '@telltale/semconv';
import type { StoreDb } from '../StoreDb.js';
import type { RunOutcomeValue } from '../runs/RunSummary.js';
import type { AnalyticsFilter, PriceTable } from './AnalyticsFilter.js';
import { MATERIALIZED_CTE_SETTINGS, medianParams, thresholdParams } from '../sql/loopParams.js';
import { KIND_OF_CODE_SQL, VARIANT_OF_CODE_SQL, loopChain, type AgentLimitsSource } from '../sql/loopSql.js';
import { factLoopChain } from '../facts/factLoopsSql.js';
import {
  LOOP_KINDS,
  LOOP_VARIANTS,
  type AgentStepMedian,
  type LoopDetectionRow,
  type LoopKind,
  type LoopPage,
  type LoopThresholds,
  type LoopTotals,
  type LoopVariant,
} from './loopTypes.js';
import { filterParams } from '../sql/sqlParts.js';
import { useRunFacts } from '../facts/useRunFacts.js';

type Num = number | string;
const n = (v: Num | null | undefined): number => Number(v ?? 0);

/** The ORDER BY clause of each order of the detections list (an allowlist). */
const LOOP_ORDER_SQL: Readonly<Record<LoopOrder, string>> = {
  recent: 'run_start DESC, run_id, code, anchor_ns',
  wasted_cost: 'wasted_cost DESC, run_start DESC, run_id, code, anchor_ns',
  wasted_time: 'wasted_ns DESC, run_start DESC, run_id, code, anchor_ns',
};

export interface LoopPageOptions {
  limit: number;
  offset: number;
  kind?: LoopKind;
  orderBy?: LoopOrder;
  /** Bound medians per agent (for filters restricted to some runs); absent: computed from the filter's runs. */
  medians?: readonly AgentStepMedian[];
}

function pageSql(order: LoopOrder, chain: string): string {
  // det_rows is read twice (the page, the totals); it holds the runs that
  // loop (run_loops may hold the others too, without detections), and the
  // scoped runs give the run count.
  return `${chain},
det_rows AS (
    SELECT
        run_id, agent, service, outcome, run_start, has_median, median_steps, step_limit,
        det.1 AS code, ${KIND_OF_CODE_SQL}[code] AS kind, ${VARIANT_OF_CODE_SQL}[code] AS variant,
        det.4 AS count, det.5 AS anchor_ns, leftPad(lower(hex(det.6)), 16, '0') AS anchor_span_id, det.7 AS w,
        arraySum(x -> x.3, w) AS wasted_ns, arraySum(x -> x.4, w) AS wasted_cost
    FROM run_loops
    ARRAY JOIN dets AS det
),
run_totals_by_kind AS (
    SELECT
        grouping(kind) = 1 AS per_run,
        kind,
        countIf(code > 0) AS detections,
        countIf(code > 0 AND ({kind:String} = '' OR kind = {kind:String})) AS listed,
        arrayDistinct(arrayFlatten(groupArray(w))) AS ww,
        arraySum(x -> x.3, ww) AS wasted_ns,
        arraySum(x -> x.4, ww) AS wasted_cost
    FROM det_rows
    GROUP BY GROUPING SETS ((run_id, kind), (run_id))
)
SELECT
    'detection' AS row_type, run_id, agent, service, outcome, toString(toUnixTimestamp64Nano(run_start)) AS run_start_ns,
    kind, variant, count, toString(anchor_ns) AS anchor_start_ns, anchor_span_id, wasted_ns, wasted_cost,
    has_median, median_steps, step_limit, toUInt64(0) AS runs, toUInt64(0) AS runs_flagged, toUInt64(0) AS detections, toUInt64(0) AS listed
FROM
(
    SELECT * FROM det_rows
    WHERE code > 0 AND ({kind:String} = '' OR kind = {kind:String})
    ORDER BY ${LOOP_ORDER_SQL[order]}
    LIMIT {limit:UInt32} OFFSET {offset:UInt32}
)
UNION ALL
SELECT
    'kind', '', '', '', '', '', kind, '', 0, '', '', sum(wasted_ns), sum(wasted_cost),
    false, 0, 0, toUInt64(0), countIf(detections > 0), sum(detections), sum(listed)
FROM run_totals_by_kind
WHERE NOT per_run AND detections > 0
GROUP BY kind
UNION ALL
SELECT
    'overall', '', '', '', '', '', '', '', 0, '', '', sum(wasted_ns), sum(wasted_cost),
    false, 0, 0, (SELECT count() FROM scoped_runs), countIf(detections > 0), sum(detections), sum(listed)
FROM run_totals_by_kind
WHERE per_run`;
}

interface PageRow {
  row_type: 'detection' | 'kind' | 'overall';
  run_id: string;
  agent: string;
  service: string;
  outcome: RunOutcomeValue;
  run_start_ns: string;
  kind: string;
  variant: string;
  count: Num;
  anchor_start_ns: string;
  anchor_span_id: string;
  wasted_ns: Num;
  wasted_cost: Num;
  has_median: boolean | number;
  median_steps: Num;
  step_limit: Num;
  runs: Num;
  runs_flagged: Num;
  detections: Num;
  listed: Num;
}

const emptyTotals = (): LoopTotals => ({ runsFlagged: 0, detections: 0, wastedNs: 0, wastedCostUsd: 0 });
const emptyPage = (): LoopPage => ({
  detections: [],
  total: 0,
  runs: 0,
  byKind: Object.fromEntries(LOOP_KINDS.map((k) => [k, emptyTotals()])) as Record<LoopKind, LoopTotals>,
  overall: emptyTotals(),
});

/** Loop detections (a page, without evidence span ids) with totals per kind and over all kinds. */
export async function queryLoopPage(
  db: StoreDb,
  filter: AnalyticsFilter,
  prices: PriceTable,
  thresholds: LoopThresholds,
  opts: LoopPageOptions,
): Promise<LoopPage> {
  const { client } = db;
  const limits: AgentLimitsSource = opts.medians === undefined ? 'inline' : 'bound';
  const facts = await useRunFacts(db.runFacts, filter, thresholds);
  const result = await client.query({
    query: pageSql(opts.orderBy ?? 'recent', facts ? factLoopChain(limits) : loopChain(limits, 'waste')),
    format: 'JSONEachRow',
    query_params: {
      ...filterParams(filter, prices),
      ...thresholdParams(thresholds),
      ...medianParams(opts.medians),
      kind: opts.kind ?? '',
      limit: opts.limit,
      offset: opts.offset,
    },
    clickhouse_settings: MATERIALIZED_CTE_SETTINGS,
  });
  const rows = await result.json<PageRow>();
  const page = emptyPage();
  const totals = (r: PageRow): LoopTotals => ({
    runsFlagged: n(r.runs_flagged),
    detections: n(r.detections),
    wastedNs: n(r.wasted_ns),
    wastedCostUsd: n(r.wasted_cost),
  });
  for (const r of rows) {
    switch (r.row_type) {
      case 'detection':
        page.detections.push(toDetection(r));
        break;
      case 'kind':
        page.byKind[r.kind as LoopKind] = totals(r);
        break;
      case 'overall':
        page.overall = totals(r);
        page.total = n(r.listed);
        page.runs = n(r.runs);
        break;
    }
  }
  const order = LOOP_ORDERS_TS[opts.orderBy ?? 'recent'];
  page.detections.sort(order);
  return page;
}

function toDetection(r: PageRow): LoopDetectionRow {
  return {
    runId: r.run_id,
    agent: r.agent,
    service: r.service,
    runOutcome: r.outcome,
    runStartUnixNano: r.run_start_ns,
    variant: r.variant as LoopVariant,
    count: n(r.count),
    anchorStartNs: r.anchor_start_ns,
    anchorSpanId: r.anchor_span_id,
    wastedNs: n(r.wasted_ns),
    wastedCostUsd: n(r.wasted_cost),
    agentMedianSteps: r.has_median === true || r.has_median === 1 ? n(r.median_steps) : null,
    stepLimit: n(r.step_limit),
  };
}

/** UNION ALL does not keep the page's order: restore it (the SQL order, on the same keys). */
const variantCode = (v: LoopVariant): number => LOOP_VARIANTS.indexOf(v);
const cmpBig = (a: string, b: string): number => (BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0);
const recent = (a: LoopDetectionRow, b: LoopDetectionRow): number =>
  -cmpBig(a.runStartUnixNano, b.runStartUnixNano) ||
  (a.runId < b.runId ? -1 : a.runId > b.runId ? 1 : 0) ||
  variantCode(a.variant) - variantCode(b.variant) ||
  cmpBig(a.anchorStartNs, b.anchorStartNs);
const LOOP_ORDERS_TS: Record<LoopOrder, (a: LoopDetectionRow, b: LoopDetectionRow) => number> = {
  recent,
  wasted_cost: (a, b) => b.wastedCostUsd - a.wastedCostUsd || recent(a, b),
  wasted_time: (a, b) => b.wastedNs - a.wastedNs || recent(a, b),
};
