/** Rows as JSONEachRow returns them: numbers may come as strings (64-bit ints). */
export type LooseRow = Readonly<Record<string, unknown>>;

/**
 * Differences between two row sets that should hold the same numbers: rows
 * are matched by `keys`, numeric `values` compared with a relative tolerance
 * (float sums differ in the last bits with summation order); a value absent
 * from our row is not compared. Returns
 * human-readable mismatches (at most `limit`), empty when they agree.
 */
export function compareRows(
  ours: readonly LooseRow[],
  plain: readonly LooseRow[],
  keys: readonly string[],
  values: readonly string[],
  opts: { relTol?: number; limit?: number } = {},
): string[] {
  const relTol = opts.relTol ?? 1e-9;
  const limit = opts.limit ?? 5;
  const keyOf = (r: LooseRow): string => JSON.stringify(keys.map((k) => String(r[k])));
  const plainByKey = new Map(plain.map((r) => [keyOf(r), r]));
  const problems: string[] = [];
  if (ours.length !== plain.length) problems.push(`row count ${ours.length} vs plain ${plain.length}`);
  for (const o of ours) {
    const k = keyOf(o);
    const p = plainByKey.get(k);
    if (p === undefined) {
      problems.push(`row ${k} missing from plain`);
      continue;
    }
    for (const v of values) {
      if (o[v] === undefined) continue; // ours leaves out what it does not claim exactly (digest quantiles)
      const a = Number(o[v]);
      const b = Number(p[v]);
      const close = a === b || Math.abs(a - b) <= relTol * Math.max(Math.abs(a), Math.abs(b));
      if (!close) problems.push(`${k} ${v}: ${a} vs plain ${b}`);
    }
  }
  return problems.slice(0, limit);
}
