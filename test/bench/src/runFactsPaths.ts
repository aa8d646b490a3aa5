/** Runs whose facts a server has written so far, by path (`telltale_run_facts_finalised_runs_total`). */
export interface RunFactsPaths {
  /** Computed from the spans in hand: by the ingest workers, for runs their requests held whole. */
  ingest: number;
  /** Read back from storage by the SQL finaliser. */
  sql: number;
}

/** The two `path` series of the counter in a Prometheus text exposition; undefined when either is missing. */
export function parseRunFactsPaths(text: string): RunFactsPaths | undefined {
  const line = /^telltale_run_facts_finalised_runs_total\{path="(ingest|sql)"\} (\S+)$/gm;
  const found = new Map<string, number>();
  for (const m of text.matchAll(line)) found.set(m[1]!, Number(m[2]));
  const ingest = found.get('ingest');
  const sql = found.get('sql');
  return ingest === undefined || sql === undefined ? undefined : { ingest, sql };
}

/** Scrapes the server's `/metrics` for parseRunFactsPaths. */
export async function scrapeRunFactsPaths(baseUrl: string): Promise<RunFactsPaths | undefined> {
  const res = await fetch(new URL('/metrics', baseUrl), { signal: AbortSignal.timeout(10_000) });
  if (!res.ok) throw new Error(`GET /metrics answered ${res.status}`);
  return parseRunFactsPaths(await res.text());
}
