/**
 * The dashboard pages the dashboard bench visits, and what counts as their
 * data on screen. A page's "marks" are CSS selectors of elements that hold
 * figures from the API (a tile in its `ready` state, a table row, a waterfall
 * row), never a spinner: "first data" is when the first of them appears,
 * "all data" when the last one has.
 */
export interface DashboardPage {
  /** Short name, as the report shows it. */
  name: string;
  /** The route (`/runs/:runId` pages get theirs from the run picked). */
  path: string;
  /** Adds the shared time window (`?from=…&to=…`) to the URL. */
  windowed: boolean;
  /** Selectors of the elements holding API data; each is waited for. */
  marks: readonly Mark[];
}

export interface Mark {
  /** A label for the report (a tile's test id, "rows", …). */
  name: string;
  selector: string;
  /** Counts for "first data" (the page's main figures); every mark counts for "all data". */
  first: boolean;
}

/** Every tile of a page, ready: what "first data" and "all data" mean on the tiled pages. */
function tiles(...testIds: string[]): Mark[] {
  return testIds.map((id) => ({
    name: id.replace(/^tile-/, ''),
    selector: `[data-testid="${id}"][data-status="ready"]`,
    first: true,
  }));
}

/** Elements of any page that say a figure did not arrive (placeholders in their error or empty state). */
export const PROBLEM_SELECTOR = '[data-testid="status-error"], [data-status="error"], [data-status="empty"]';

export const DASHBOARD_PAGES: readonly DashboardPage[] = [
  {
    name: 'Overview',
    path: '/',
    windowed: true,
    marks: tiles(
      'tile-fix-first',
      'tile-loop-cost',
      'tile-success',
      'tile-success-series',
      'tile-failures',
      'tile-runs-series',
      'tile-latency-series',
      'tile-loop-rate',
    ),
  },
  {
    name: 'Reliability',
    path: '/reliability',
    windowed: true,
    marks: tiles('tile-reliability-summary', 'tile-what-if', 'tile-curve', 'tile-steps'),
  },
  {
    name: 'Latency',
    path: '/latency',
    windowed: true,
    marks: tiles('tile-latency-lines', 'tile-run-duration', 'tile-tail', 'tile-latency-table'),
  },
  {
    name: 'Loops',
    path: '/loops',
    windowed: true,
    marks: tiles('tile-loop-totals', 'tile-loop-kinds', 'tile-loop-detections'),
  },
  {
    name: 'Cost',
    path: '/cost',
    windowed: true,
    marks: tiles(
      'tile-cost-summary',
      'tile-cost-distribution',
      'tile-cost-series',
      'tile-cost-model',
      'tile-cost-step',
      'tile-cost-tool',
    ),
  },
  {
    name: 'Runs',
    path: '/runs',
    windowed: true,
    marks: [
      { name: 'rows', selector: '[data-testid="run-row"]', first: true },
      // every row's failure cause and loop flag (two more calls, for the page's run ids)
      { name: 'causes+loops', selector: '[data-testid="runs-table"][data-annotations="ready"]', first: false },
    ],
  },
  {
    name: 'Run detail (typical run)',
    path: '/runs/:runId',
    windowed: false,
    marks: [
      { name: 'header', selector: '[data-testid="run-header"]', first: true },
      { name: 'waterfall', selector: '[data-testid="waterfall-row"]', first: true },
      { name: 'loops', selector: '[data-testid="trace"][data-loops="ready"]', first: false },
    ],
  },
  {
    name: 'Run detail (largest run)',
    path: '/runs/:runId',
    windowed: false,
    marks: [
      { name: 'header', selector: '[data-testid="run-header"]', first: true },
      { name: 'waterfall', selector: '[data-testid="waterfall-row"]', first: true },
      { name: 'loops', selector: '[data-testid="trace"][data-loops="ready"]', first: false },
    ],
  },
  {
    name: 'Alerts',
    path: '/alerts',
    windowed: false,
    // the rules list as the API gave it (the bench store has no rules: its empty state)
    marks: [
      {
        name: 'rules',
        selector:
          '[aria-label="Alert rules"] [data-testid="alert-rules-table"], [aria-label="Alert rules"] [data-testid="status-empty"]',
        first: true,
      },
    ],
  },
];
