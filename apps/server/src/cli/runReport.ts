import type { ReliabilitySummary } from '@telltale/analytics';
import { ApiClient } from './ApiClient.js';
import { EXIT } from './CliError.js';
import { windowQuery, type CommonOptions } from './commonOptions.js';
import { formatReport } from './formatReport.js';

export interface ReportOptions extends CommonOptions {
  json: boolean;
}

/** `telltale report`: the reliability summary of a running server, as a table or JSON. */
export async function runReport(opts: ReportOptions, print: (text: string) => void): Promise<number> {
  const client = new ApiClient(opts.endpoint, opts.apiKey);
  const query = windowQuery(opts);
  const reliability = await client.get<ReliabilitySummary>('/reliability/summary', query);
  if (opts.json) {
    print(`${JSON.stringify({ endpoint: client.base, from: query.from, to: query.to, agent: opts.agent ?? null, reliability }, null, 2)}\n`);
    return EXIT.OK;
  }
  print(formatReport({ endpoint: client.base, window: `last ${opts.since}`, ...(opts.agent === undefined ? {} : { agent: opts.agent }), reliability }));
  return EXIT.OK;
}
