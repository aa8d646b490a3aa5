/** Sum (seconds) and count of one stage's histogram. */
export interface StageTotals {
  sumS: number;
  count: number;
}

/** The server's `telltale_otlp_stage_duration_seconds` sums and counts by stage, read from `/metrics`. */
export async function scrapeOtlpStages(baseUrl: string): Promise<Map<string, StageTotals>> {
  const res = await fetch(new URL('/metrics', baseUrl), { signal: AbortSignal.timeout(10_000) });
  if (!res.ok) throw new Error(`GET /metrics answered ${res.status}`);
  return parseOtlpStages(await res.text());
}

/** Reads the stage histogram's `_sum` and `_count` lines out of a Prometheus text exposition. */
export function parseOtlpStages(text: string): Map<string, StageTotals> {
  const out = new Map<string, StageTotals>();
  const line = /^telltale_otlp_stage_duration_seconds_(sum|count)\{stage="(\w+)"\} (\S+)$/gm;
  for (const m of text.matchAll(line)) {
    const totals = out.get(m[2]!) ?? { sumS: 0, count: 0 };
    if (m[1] === 'sum') totals.sumS = Number(m[3]);
    else totals.count = Number(m[3]);
    out.set(m[2]!, totals);
  }
  return out;
}

/** Mean ms per request of each stage between two scrapes. */
export function stageMeansMs(
  before: ReadonlyMap<string, StageTotals>,
  after: ReadonlyMap<string, StageTotals>,
): { stage: string; meanMs: number; requests: number }[] {
  return [...after].map(([stage, a]) => {
    const b = before.get(stage) ?? { sumS: 0, count: 0 };
    const requests = a.count - b.count;
    return { stage, meanMs: requests > 0 ? ((a.sumS - b.sumS) / requests) * 1000 : Number.NaN, requests };
  });
}
