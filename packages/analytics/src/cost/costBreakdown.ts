import { type CostGroupBy } from '@telltale/semconv';
import type { StoreRows } from '@telltale/store';

export interface CostBreakdownRow extends StoreRows.CostGroup {
  /** Of the breakdown's total cost (0 when nothing was spent). */
  share: number;
}

export interface CostBreakdown {
  groupBy: CostGroupBy;
  /** Cost of the matching spans (the sum of the rows). */
  totalUsd: number;
  /** Most expensive first; key '' gathers spans without a step name / tool / model. */
  rows: CostBreakdownRow[];
}

/** Pure: shares of the total per group. */
export function costBreakdown(groupBy: CostGroupBy, groups: readonly StoreRows.CostGroup[]): CostBreakdown {
  const totalUsd = groups.reduce((sum, g) => sum + g.costUsd, 0);
  return { groupBy, totalUsd, rows: groups.map((g) => ({ ...g, share: totalUsd > 0 ? g.costUsd / totalUsd : 0 })) };
}
