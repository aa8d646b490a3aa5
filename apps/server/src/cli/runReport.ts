import type {
  CostSummary,
  FailureBreakdown,
  LatencyPercentiles,
  LoopsReport,
  ReliabilitySummary,
  TailAttribution,
} from '@telltale/analytics';
import { ApiClient } from './ApiClient.js';
import { EXIT } from './CliError.js';
import { windowQuery, type CommonOptions } from './commonOptions.js';
import { formatReport, type ReportData } from './formatReport.js';

export interface ReportOptions extends CommonOptions {
  json: boolean;
}

/** Every section's API response for the window; routes an older server lacks come back undefined. */
export async function fetchReport(
  client: ApiClient,
  query: ReturnType<typeof windowQuery>,
): Promise<Omit<ReportData, 'endpoint' | 'window'>> {
  const [reliability, runs, byAgent, tail, loops, failures, cost] = await Promise.all([
    client.get<ReliabilitySummary>('/reliability/summary', query),
    client.getOptional<LatencyPercentiles>('/latency/percentiles', { ...query, groupBy: 'run' }),
    client.getOptional<LatencyPercentiles>('/latency/percentiles', { ...query, groupBy: 'agent' }),
    client.getOptional<TailAttribution>('/latency/tail', query),
    client.getOptional<LoopsReport>('/loops', { ...query, limit: 1 }),
    client.getOptional<FailureBreakdown>('/failures', query),
    client.getOptional<CostSummary>('/cost/summary', query),
  ]);
  return {
    reliability,
    ...(runs === undefined
      ? {}
      : { latency: { runs, ...(byAgent === undefined ? {} : { byAgent }), ...(tail === undefined ? {} : { tail }) } }),
    ...(loops === undefined ? {} : { loops }),
    ...(failures === undefined ? {} : { failures }),
    ...(cost === undefined ? {} : { cost }),
  };
}

/** `telltale report`: the reliability summary of a running server, as tables or JSON. */
export async function runReport(opts: ReportOptions, print: (text: string) => void): Promise<number> {
  const client = new ApiClient(opts.endpoint, opts.apiKey);
  const query = windowQuery(opts);
  const sections = await fetchReport(client, query);
  if (opts.json) {
    print(
      `${JSON.stringify({ endpoint: client.base, from: query.from, to: query.to, agent: opts.agent ?? null, ...sections }, null, 2)}\n`,
    );
    return EXIT.OK;
  }
  print(
    formatReport({
      endpoint: client.base,
      window: `last ${opts.since}`,
      ...(opts.agent === undefined ? {} : { agent: opts.agent }),
      ...sections,
    }),
  );
  return EXIT.OK;
}
