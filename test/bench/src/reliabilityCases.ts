import type { BenchCase } from './BenchCase.js';
import type { BenchContext } from './BenchContext.js';
import { PLAIN_AGENT_RUNS, PLAIN_CURVE, PLAIN_STEP_STATS } from './plainReliabilitySql.js';

const OVERVIEW = { kind: 'overview', targetMs: 500, maxRatio: 2 } as const;

/** Reliability summary (step and agent tables) and the compounding curve. */
export function reliabilityCases(ctx: BenchContext): BenchCase[] {
  const { store, analytics, filter, prices, sql } = ctx;
  return [
    {
      name: 'reliability',
      method: 'Analytics#reliability',
      ...OVERVIEW,
      ours: () => analytics.reliability(filter),
      plain: async () => {
        const [steps, agents] = await Promise.all([sql(PLAIN_STEP_STATS), sql(PLAIN_AGENT_RUNS)]);
        return { steps, agents };
      },
      reference: async () => {
        const [steps, agents] = await Promise.all([
          store.metrics.stepGroupStats(filter, prices),
          store.metrics.agentRunStats(filter, prices),
        ]);
        return {
          steps: {
            keys: ['agent', 'service', 'step_name'],
            values: [
              'groups',
              'groups_in_success',
              'first_ok',
              'recovered',
              'attempts',
              'ok_attempts',
              'retry_extra_ns',
              'retry_extra_cost',
            ],
            rows: steps.map((r) => ({
              agent: r.agent,
              service: r.service,
              step_name: r.stepName,
              groups: r.groups,
              groups_in_success: r.groupsInSuccessfulRuns,
              first_ok: r.firstOk,
              recovered: r.recovered,
              attempts: r.attempts,
              ok_attempts: r.okAttempts,
              retry_extra_ns: r.retryExtraNs,
              retry_extra_cost: r.retryExtraCostUsd,
            })),
          },
          agents: {
            keys: ['agent', 'service'],
            values: ['success', 'failure', 'incomplete', 'step_explained', 'seam', 'fallback'],
            rows: agents.map((r) => ({
              agent: r.agent,
              service: r.service,
              success: r.success,
              failure: r.failure,
              incomplete: r.incomplete,
              step_explained: r.stepExplainedFailures,
              seam: r.seamFailures,
              fallback: r.fallbackRecoveries,
            })),
          },
        };
      },
    },
    {
      name: 'compoundingCurve',
      method: 'Analytics#compoundingCurve',
      ...OVERVIEW,
      ours: () => analytics.compoundingCurve(filter),
      plain: async () => ({ curve: await sql(PLAIN_CURVE) }),
      reference: async () => ({
        curve: {
          keys: ['groups'],
          values: ['runs', 'success'],
          rows: (await store.metrics.compoundingCurve(filter, prices)).map((r) => ({ ...r })),
        },
      }),
    },
  ];
}
