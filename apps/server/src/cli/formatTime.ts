/** A time for tables: `2026-11-23 19:42:24Z` (UTC, seconds). */
export function formatTime(ms: number | undefined): string {
  if (ms === undefined) return '—';
  return `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')}Z`;
}
