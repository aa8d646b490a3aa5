import { formatCount } from '../format';

export interface Pagination {
  /** 1-based. */
  page: number;
  pageCount: number;
  hasPrev: boolean;
  hasNext: boolean;
  /** `1–50 of 1,234`, or `No runs` (`No sessions`, … with another noun). */
  rangeLabel: string;
  /** `← Newer` / `Older →` for a list newest first, `← Previous` / `Next →` for any other order. */
  prevLabel: string;
  nextLabel: string;
}

export function preparePagination(
  page: { total: number; limit: number; offset: number; shown: number },
  { noun = 'runs', newestFirst = true }: { noun?: string; newestFirst?: boolean } = {},
): Pagination {
  const limit = Math.max(1, page.limit);
  const current = Math.floor(page.offset / limit) + 1;
  const pageCount = Math.max(1, Math.ceil(page.total / limit));
  const first = page.offset + 1;
  const last = page.offset + page.shown;
  return {
    page: current,
    pageCount,
    hasPrev: current > 1,
    hasNext: page.offset + limit < page.total,
    prevLabel: newestFirst ? '← Newer' : '← Previous',
    nextLabel: newestFirst ? 'Older →' : 'Next →',
    rangeLabel:
      page.shown === 0
        ? `No ${noun}${page.total > 0 ? ` on this page (${formatCount(page.total)} in total)` : ''}`
        : `${formatCount(first)}–${formatCount(last)} of ${formatCount(page.total)}`,
  };
}
