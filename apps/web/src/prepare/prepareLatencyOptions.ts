import type { LatencyLevel } from '@telltale/api-contract';
import { LATENCY_LEVELS } from '@telltale/api-contract';

export const LATENCY_PAGE_GROUP_BYS = ['step', 'tool', 'model', 'agent'] as const;
export type LatencyPageGroupBy = (typeof LATENCY_PAGE_GROUP_BYS)[number];

/** The latency page's own URL options: `?groupBy=tool&level=p95` (default: per step, P99). */
export function prepareLatencyOptions(search: URLSearchParams): { groupBy: LatencyPageGroupBy; level: LatencyLevel } {
  const groupBy = LATENCY_PAGE_GROUP_BYS.find((g) => g === search.get('groupBy')) ?? 'step';
  const level = LATENCY_LEVELS.find((l) => l === search.get('level')) ?? 'p99';
  return { groupBy, level };
}
