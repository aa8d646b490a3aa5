import type { LatencyPercentiles, LoopsReport, ReliabilitySummary } from '@telltale/analytics';
import { ApiClient } from './ApiClient.js';
import { CliError, EXIT } from './CliError.js';
import { windowQuery, type CommonOptions } from './commonOptions.js';
import { evaluateBars, type AgentMeasurement, type Bars } from './evaluateBars.js';
import { parseDuration, parseFraction } from './parseDuration.js';

export interface CheckOptions extends CommonOptions {
  minSuccess?: string;
  maxP99?: string;
  maxLoopRate?: string;
}

/** The bars from the command line; at least one is required. */
export function barsOf(opts: CheckOptions): Bars {
  const bars: Bars = {
    ...(opts.minSuccess === undefined ? {} : { minSuccess: parseFraction(opts.minSuccess, '--min-success') }),
    ...(opts.maxP99 === undefined ? {} : { maxP99Ns: parseDuration(opts.maxP99, '--max-p99') * 1e6 }),
    ...(opts.maxLoopRate === undefined ? {} : { maxLoopRate: parseFraction(opts.maxLoopRate, '--max-loop-rate') }),
  };
  if (Object.keys(bars).length === 0)
    throw new CliError('no bar to check: pass --min-success, --max-p99 and/or --max-loop-rate');
  return bars;
}

const agentKey = (agent: string, service: string): string => JSON.stringify([agent, service]);

/** Per agent (service + root name) in the window: completed runs, observed success, run p99, loop rate. */
async function measureAgents(
  client: ApiClient,
  query: ReturnType<typeof windowQuery>,
  bars: Bars,
): Promise<AgentMeasurement[]> {
  const [summary, latency] = await Promise.all([
    client.get<ReliabilitySummary>('/reliability/summary', query),
    bars.maxP99Ns === undefined
      ? undefined
      : client.get<LatencyPercentiles>('/latency/percentiles', { ...query, groupBy: 'agent' }),
  ]);
  const p99 = new Map(latency?.groups.map((g) => [agentKey(g.key, g.service), g.percentilesNs.p99]));
  // Loop totals come per filter: one small page per agent (its service and name), in parallel.
  const loopRates = await Promise.all(
    summary.agents.map(async (a) => {
      if (bars.maxLoopRate === undefined) return null;
      const loops = await client.get<LoopsReport>('/loops', { ...query, agent: a.agent, service: a.service, limit: 1 });
      return loops.runs === 0 ? null : loops.overall.runsFlagged / loops.runs;
    }),
  );
  return summary.agents.map((a, i) => ({
    agent: a.agent,
    service: a.service,
    completedRuns: a.runs,
    successRate: a.observed.value,
    p99Ns: p99.get(agentKey(a.agent, a.service)) ?? null,
    loopRate: loopRates[i] ?? null,
  }));
}

/**
 * `telltale check`: exit 0 when every agent (or the one selected) meets
 * every bar, 1 when any misses one (each miss printed with the measured
 * value), 2 for usage and connection errors (thrown as CliError).
 */
export async function runCheck(opts: CheckOptions, print: (text: string) => void): Promise<number> {
  const bars = barsOf(opts);
  const client = new ApiClient(opts.endpoint, opts.apiKey);
  const query = windowQuery(opts);
  const agents = await measureAgents(client, query, bars);
  if (agents.length === 0) {
    print(
      `FAIL no completed runs${opts.agent === undefined ? '' : ` of agent ${opts.agent}`} in the last ${opts.since} at ${client.base}\n`,
    );
    return EXIT.BAR_MISSED;
  }
  const results = evaluateBars(agents, bars);
  const failed = results.filter((r) => !r.passed);
  print(`${results.map((r) => r.message).join('\n')}\n`);
  print(failed.length === 0 ? `all ${agents.length} agent(s) meet every bar\n` : `${failed.length} bar(s) missed\n`);
  return failed.length === 0 ? EXIT.OK : EXIT.BAR_MISSED;
}
