import type { OffsetPage } from '../../prepare/prepareAlertHistory';

/** Newer / older buttons for a list whose total is unknown. */
export function OffsetPager({
  page,
  onPage,
  testId,
}: {
  page: OffsetPage;
  onPage: (page: number) => void;
  testId?: string;
}) {
  return (
    <nav className="pager" aria-label="Pagination" data-testid={testId ?? 'offset-pager'}>
      <span className="muted">{page.rangeLabel}</span>
      <span className="pager-buttons">
        <button
          type="button"
          className="button"
          disabled={!page.hasPrev}
          onClick={() => onPage(page.page - 1)}
          data-testid="pager-newer"
        >
          ← Newer
        </button>
        <span className="pager-page">Page {page.page}</span>
        <button
          type="button"
          className="button"
          disabled={!page.hasNext}
          onClick={() => onPage(page.page + 1)}
          data-testid="pager-older"
        >
          Older →
        </button>
      </span>
    </nav>
  );
}
