import type { Pagination } from '../prepare/preparePagination';

export function Pager({ pagination, onPage }: { pagination: Pagination; onPage: (page: number) => void }) {
  return (
    <nav className="pager" aria-label="Pagination" data-testid="pager">
      <span className="muted">{pagination.rangeLabel}</span>
      <span className="pager-buttons">
        <button
          type="button"
          className="button"
          disabled={!pagination.hasPrev}
          onClick={() => onPage(pagination.page - 1)}
        >
          {pagination.prevLabel}
        </button>
        <span className="pager-page">
          Page {pagination.page} of {pagination.pageCount}
        </span>
        <button
          type="button"
          className="button"
          disabled={!pagination.hasNext}
          onClick={() => onPage(pagination.page + 1)}
        >
          {pagination.nextLabel}
        </button>
      </span>
    </nav>
  );
}
