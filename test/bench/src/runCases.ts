import type { BenchCase } from './BenchCase.js';
import type { BenchContext } from './BenchContext.js';
import type { LooseRow } from './compareRows.js';
import { PLAIN_RUN_PAGE_IDS, PLAIN_RUN_PAGE_ROWS, PLAIN_SESSIONS } from './plainRunsSql.js';

export const PAGE_SIZE = 50;

/** The runs list (first page, newest first), the sessions list, one run by id, one trace by id. */
export function runCases(ctx: BenchContext): BenchCase[] {
  const { analytics, filter, sample, sql } = ctx;
  const runFilter = { projectId: filter.projectId, fromUnixNano: filter.fromUnixNano, toUnixNano: filter.toUnixNano };
  return [
    {
      name: `listRuns (first ${PAGE_SIZE})`,
      method: 'Analytics#listRuns',
      kind: 'overview',
      targetMs: 500,
      maxRatio: 2,
      ours: () => analytics.listRuns(runFilter, { limit: PAGE_SIZE, offset: 0 }),
      plain: async () => {
        const ids = await sql(PLAIN_RUN_PAGE_IDS, { limit: PAGE_SIZE });
        const runIds = ids.map((r) => String(r.run_id));
        const rows = await sql(PLAIN_RUN_PAGE_ROWS, { runIds });
        const byId = new Map(rows.map((r) => [String(r.run_id), r]));
        return { page: runIds.map((id, rank): LooseRow => ({ ...byId.get(id), rank, total: ids[0]?.total })) };
      },
      reference: async () => {
        const { runs, total } = await analytics.listRuns(runFilter, { limit: PAGE_SIZE, offset: 0 });
        return {
          page: {
            keys: ['run_id'],
            values: ['rank', 'total', 'duration_ns', 'steps', 'spans', 'cost', 'in_tok', 'unpriced', 'attempt_groups'],
            rows: runs.map((r, rank) => ({
              run_id: r.runId,
              rank,
              total,
              duration_ns: r.durationNs,
              steps: r.steps,
              spans: r.spans,
              cost: r.costUsd,
              in_tok: r.inputTokens,
              unpriced: r.unpricedSpans,
              attempt_groups: r.attemptGroups,
            })),
          },
        };
      },
    },
    {
      // sessions group runs by the session id of migration 0007 (the bench dataset names none: this times reading and grouping the window's runs)
      name: `listSessions (first ${PAGE_SIZE})`,
      method: 'Analytics#listSessions',
      kind: 'overview',
      targetMs: 500,
      maxRatio: undefined,
      ours: () => analytics.listSessions(runFilter, { limit: PAGE_SIZE, offset: 0 }),
      plain: async () => ({ sessions: await sql(PLAIN_SESSIONS, { limit: PAGE_SIZE }) }),
      reference: async () => {
        const { sessions, total } = await analytics.listSessions(runFilter, { limit: PAGE_SIZE, offset: 0 });
        return {
          sessions: {
            keys: ['session_id'],
            values: ['runs', 'cost', 'in_tok', 'total'],
            rows: sessions.map((x) => ({
              session_id: x.sessionId,
              runs: x.runs,
              cost: x.costUsd,
              in_tok: x.inputTokens,
              total,
            })),
          },
        };
      },
    },
    {
      name: 'getRun',
      method: 'Analytics#getRun',
      kind: 'lookup',
      targetMs: undefined,
      maxRatio: undefined,
      ours: async () => {
        const run = await analytics.getRun(filter.projectId, sample.runId);
        if (run === undefined) throw new Error(`run ${sample.runId} not found`);
        return run;
      },
    },
    {
      name: 'getTraceSpans',
      method: 'Analytics#getTraceSpans',
      kind: 'lookup',
      targetMs: 25,
      maxRatio: undefined,
      ours: async () => {
        const spans = await analytics.getTraceSpans(filter.projectId, sample.traceId);
        if (spans.length === 0) throw new Error(`trace ${sample.traceId} not found`);
        return spans;
      },
    },
  ];
}
