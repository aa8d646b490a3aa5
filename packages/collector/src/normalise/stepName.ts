const MAX_CACHED = 4_096;
const cache = new Map<string, string>();

function strip(name: string): string {
  return name
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '{id}')
    .replace(/\b[0-9a-f]{16,}\b/gi, '{id}')
    .replace(/\d+/g, '{n}');
}

/**
 * Removes the volatile parts of a span name so the same step has the same
 * name across runs: UUIDs, long hex ids and numbers become placeholders.
 * Span names repeat, so results are cached: the regexes run once per
 * distinct name, not once per span. The cache holds 4,096 names and starts
 * afresh when full (names with ids in them never repeat; the hot names come
 * back at once).
 */
export function stableSpanName(name: string): string {
  const hit = cache.get(name);
  if (hit !== undefined) return hit;
  const stable = strip(name);
  if (cache.size >= MAX_CACHED) cache.clear();
  cache.set(name, stable);
  return stable;
}
