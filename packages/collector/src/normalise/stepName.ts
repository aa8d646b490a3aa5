/**
 * Removes the volatile parts of a span name so the same step has the same
 * name across runs: UUIDs, long hex ids and numbers become placeholders.
 */
export function stableSpanName(name: string): string {
  return name
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '{id}')
    .replace(/\b[0-9a-f]{16,}\b/gi, '{id}')
    .replace(/\d+/g, '{n}');
}
