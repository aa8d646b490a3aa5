import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS_DIR, closeChromium, launchChromium } from './harness/browser.js';
import { TelltaleProcess } from './harness/TelltaleProcess.js';

/*
 * Every dashboard page against the real server, seeded by `telltale start
 * --demo` (a simulated fleet of SDK-instrumented agents sending OTLP: loops,
 * retries, every failure cause). The figures on screen (their raw numbers in
 * data-value attributes) must equal the API's answers for the window the
 * page shows.
 */

interface Estimate {
  value: number | null;
}
interface Summary {
  runs: { success: number; failure: number; incomplete: number };
  observed: Estimate;
  predicted: Estimate;
  gap: Estimate;
  steps: { stepName: string; eventualSuccess: Estimate; whatIfGain: number | null }[];
}
interface Loops {
  detections: {
    runId: string;
    kind: string;
    count: number;
    wastedNs: number;
    wastedCostUsd: number;
    evidence: { spanIds: string[] };
  }[];
  total: number;
  runs: number;
  overall: { runsFlagged: number; wastedNs: number; wastedCostUsd: number };
  byKind: Record<string, { wastedNs: number }>;
}
interface Cost {
  totalUsd: number;
  perRun: { p50Usd: number; p95Usd: number; p99Usd: number };
  wasted: { totalUsd: number };
  looping: { runs: number; costUsd: number; failedRuns: number; failedUsd: number };
}

const DEMO_RUNS = 300;

/**
 * USD figures are float sums that ClickHouse adds up in whatever order its
 * threads finish, so two queries over the same rows may differ in the last
 * bits (3.7044108000000016 against 3.7044108000000007, seen under load):
 * equal to the nano-dollar.
 */
function expectUsd(actual: number | undefined, expected: number | undefined): void {
  expect(actual).toBeTypeOf('number');
  expect(actual).toBeCloseTo(expected ?? Number.NaN, 9);
}

describe('dashboard pages show the API numbers', () => {
  let telltale: TelltaleProcess;
  let browser: Browser;
  let page: Page;
  /** Console errors, uncaught errors and failed requests on every page the tests below open. */
  const problems: string[] = [];

  /** GET an API route for the window the page shows (read from the filter bar), plus extra parameters. */
  async function api<T>(path: string, extra: Record<string, string> = {}): Promise<T> {
    const from = await page.getAttribute('[data-testid="time-window"]', 'data-from');
    const to = await page.getAttribute('[data-testid="time-window"]', 'data-to');
    const query = new URLSearchParams({ from: from ?? '', to: to ?? '', ...extra });
    const res = await telltale.getJson<T>(`/api/v1/${path}?${query.toString()}`);
    expect(res.status, path).toBe(200);
    return res.body;
  }

  /** The raw number a tile shows. */
  async function value(testId: string): Promise<number> {
    const text = await page.getAttribute(`[data-testid="${testId}"]`, 'data-value');
    expect(text, testId).not.toBeNull();
    return Number(text);
  }

  async function ready(...tiles: string[]): Promise<void> {
    for (const tile of tiles) await page.waitForSelector(`[data-testid="${tile}"][data-status="ready"]`);
  }

  async function shot(name: string): Promise<void> {
    await page.screenshot({ path: join(ARTIFACTS_DIR, `${name}.png`), fullPage: true });
  }

  beforeAll(async () => {
    telltale = await TelltaleProcess.start({ args: ['--demo'] });
    // the demo has sent its runs once it logs this; then wait until all are stored and finalised
    const deadline = Date.now() + 30_000;
    while (!telltale.logs.some((l) => l.includes('demo data loaded'))) {
      if (Date.now() > deadline) throw new Error(`demo did not finish:\n${telltale.logs.join('\n')}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    for (;;) {
      const { body } = await telltale.getJson<Summary>('/api/v1/reliability/summary');
      if (body.runs.success + body.runs.failure === DEMO_RUNS) break;
      if (Date.now() > deadline) throw new Error(`only ${body.runs.success + body.runs.failure} runs stored`);
      await new Promise((r) => setTimeout(r, 200));
    }
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    page.on('console', (msg) => {
      if (msg.type() === 'error') problems.push(`console: ${msg.text()} (${page.url()})`);
    });
    page.on('pageerror', (err) => problems.push(`page error: ${err.message} (${page.url()})`));
    page.on('response', (res) => {
      if (res.status() >= 400) problems.push(`${res.status()} ${res.url()}`);
    });
  });
  afterAll(async () => {
    await closeChromium(browser);
    await telltale?.dispose();
  });

  it('overview: success, gap, the step to fix first, what loops cost, cost per run, failure causes', async () => {
    await page.goto(`${telltale.url}/`);
    await ready(
      'tile-fix-first',
      'tile-loop-cost',
      'tile-success',
      'tile-failures',
      'tile-success-series',
      'tile-runs-series',
      'tile-latency-series',
      'tile-loop-rate',
    );
    const summary = await api<Summary>('reliability/summary');
    expect(summary.runs.success + summary.runs.failure).toBe(DEMO_RUNS);
    expect(await value('kpi-observed')).toBe(summary.observed.value);
    expect(await value('kpi-predicted')).toBe(summary.predicted.value);
    expect(await value('kpi-gap')).toBe(summary.gap.value);
    expect(await value('kpi-runs')).toBe(DEMO_RUNS);

    const weakest = [...summary.steps].sort((a, b) => (b.whatIfGain ?? -1) - (a.whatIfGain ?? -1))[0]!;
    expect(await page.getAttribute('[data-testid="fix-first"]', 'data-step')).toBe(weakest.stepName);
    expect(Number(await page.getAttribute('[data-testid="fix-first"]', 'data-gain'))).toBe(weakest.whatIfGain);
    expect(await page.textContent('[data-testid="fix-first"]')).toContain(`If ${weakest.stepName} reached 99%`);
    // the gain and the gap are both differences of rates: percentage points
    expect(await page.textContent('[data-testid="fix-first-gain"] .kpi-value')).toBe(
      `+${(weakest.whatIfGain! * 100).toFixed(1)} pts`,
    );
    expect(await page.textContent('[data-testid="kpi-gap"] .kpi-value')).toMatch(/^(?:[+−]\d+\.\d|0) pts$/);

    const loops = await api<Loops>('loops', { limit: '1' });
    expect(loops.overall.runsFlagged).toBeGreaterThan(0);
    expect(await value('kpi-loop-rate')).toBe(loops.overall.runsFlagged / loops.runs);
    expect(await value('kpi-loop-wasted-time')).toBe(loops.overall.wastedNs);
    expectUsd(await value('kpi-loop-wasted-usd'), loops.overall.wastedCostUsd);

    const cost = await api<Cost>('cost/summary');
    // the demo's looping runs spend money on their model calls even where the repeats themselves are free tool calls
    expect(cost.looping.costUsd + cost.looping.failedUsd).toBeGreaterThan(0);
    expectUsd(await value('kpi-looping-usd'), cost.looping.costUsd + cost.looping.failedUsd);
    expect(await page.getAttribute('[data-testid="loop-cost"]', 'data-costs-money')).toBe('true');
    expect(await value('kpi-loop-failures')).toBe(
      (await api<{ causes: { cause: string; runs: number }[] }>('failures')).causes.find((c) => c.cause === 'loop')
        ?.runs,
    );
    expectUsd(await value('kpi-cost-p50'), cost.perRun.p50Usd);
    expectUsd(await value('kpi-cost-p99'), cost.perRun.p99Usd);

    const failures = await api<{ causes: { cause: string; runs: number }[] }>('failures');
    const shown = await page.$$eval('[data-testid="failure-causes-row"]', (els) =>
      els.map((el) => [el.getAttribute('data-key'), Number(el.getAttribute('data-value'))] as const),
    );
    expect(new Map(shown)).toEqual(new Map(failures.causes.filter((c) => c.runs > 0).map((c) => [c.cause, c.runs])));
    expect(Number(await page.getAttribute('[data-testid="chart-success"]', 'data-points'))).toBeGreaterThan(0);
    await shot('overview');
  });

  it('reliability: the step table, sorted by impact, and the what-if ranking', async () => {
    await page.click('[data-testid="tile-fix-first-link"]');
    await page.waitForURL(/\/reliability/);
    await ready('tile-steps', 'tile-what-if', 'tile-curve', 'tile-reliability-summary');
    const summary = await api<Summary>('reliability/summary');
    const rows = await page.$$eval('[data-testid="step-row"]', (els) =>
      els.map((el) => ({
        step: el.getAttribute('data-step'),
        eventual: el.getAttribute('data-eventual'),
        gain: el.getAttribute('data-gain'),
      })),
    );
    expect(rows).toHaveLength(summary.steps.length);
    for (const row of rows) {
      const step = summary.steps.find((s) => s.stepName === row.step);
      expect(step, row.step ?? '').toBeDefined();
      expect(Number(row.eventual)).toBe(step!.eventualSuccess.value);
    }
    const gains = rows.map((r) => (r.gain === '' ? -Infinity : Number(r.gain)));
    expect(gains).toEqual([...gains].sort((a, b) => b - a));
    expect(await page.getAttribute('[data-testid="what-if-row"]', 'data-step')).toBe(rows[0]!.step);
    expect(await value('kpi-observed')).toBe(summary.observed.value);
    await shot('reliability');
  });

  it('latency: run-duration percentiles, per-step P99 and the tail driver', async () => {
    await page.click('[data-testid="nav-latency"]');
    await page.waitForURL(/\/latency/);
    await ready('tile-latency-lines', 'tile-run-duration', 'tile-tail', 'tile-latency-table');
    const runs = await api<{ groups: { percentilesNs: Record<string, number> }[] }>('latency/percentiles', {
      groupBy: 'run',
    });
    const marks: Record<string, number> = await page.$$eval('[data-testid="run-duration-value"]', (els) =>
      Object.fromEntries(
        els.map((el): [string, number] => [el.getAttribute('data-key') ?? '', Number(el.getAttribute('data-value'))]),
      ),
    );
    for (const level of ['p50', 'p95', 'p99'] as const)
      expect(marks[level], level).toBe(runs.groups[0]!.percentilesNs[level]! / 1e6);

    const histogram = await api<{ runs: number; buckets: { runs: number }[] }>('latency/histogram', { buckets: '40' });
    expect(histogram.runs).toBe(DEMO_RUNS);
    const bars = await page.$$eval('[data-testid="run-duration-histogram-bar"]', (els) =>
      els.map((el) => Number(el.getAttribute('data-value'))),
    );
    expect(bars).toEqual(histogram.buckets.map((b) => b.runs));

    const steps = await api<{ groups: { key: string; percentilesNs: { p99: number } }[] }>('latency/percentiles', {
      groupBy: 'step',
      precision: 'sketch',
    });
    const rows = await page.$$eval('[data-testid="latency-row"]', (els) =>
      els.map((el) => [el.getAttribute('data-key'), Number(el.getAttribute('data-value'))] as const),
    );
    expect(new Map(rows)).toEqual(new Map(steps.groups.map((g) => [g.key, g.percentilesNs.p99])));
    const columns = await page.$$eval('[data-testid="latency-table"] th', (els) => els.map((el) => el.textContent));
    expect(columns).toEqual(['step', 'Count', 'P50', 'P90', 'P95', 'P99', 'P99.9']);

    // the chart draws the slowest steps over the window, not the busiest
    const slowest = [...steps.groups].sort((a, b) => b.percentilesNs.p99 - a.percentilesNs.p99);
    expect(slowest.length).toBeGreaterThan(8);
    const lines = JSON.parse(
      (await page.getAttribute('[data-testid="chart-latency"]', 'data-lines')) ?? '[]',
    ) as string[];
    expect(lines).toHaveLength(8);
    expect(lines).toContain(slowest[0]!.key);
    const drawn = slowest.filter((g) => lines.includes(g.key)).map((g) => g.percentilesNs.p99);
    const left = slowest.filter((g) => !lines.includes(g.key)).map((g) => g.percentilesNs.p99);
    expect(Math.min(...drawn)).toBeGreaterThanOrEqual(Math.max(...left));
    expect(await page.getAttribute('[data-testid="tile-latency-lines"]', 'aria-label')).toBe(
      `P99 duration over time, the 8 slowest of ${steps.groups.length} steps`,
    );

    const tail = await api<{ tailDriver: string | null; tailRuns: number; steps: unknown[] }>('latency/tail');
    expect(await page.getAttribute('[data-testid="tail"]', 'data-driver')).toBe(tail.tailDriver ?? '');
    expect(tail.steps.length).toBeGreaterThan(10);
    expect(await page.$$('[data-testid="tail-row"]')).toHaveLength(10);
    const basis = await page.textContent('[data-testid="tail-basis"]');
    expect(basis).toContain(`Top 10 of ${tail.steps.length} steps`);
    expect(basis).toContain(`from the ${tail.tailRuns} slowest runs`);
    await shot('latency');
  });

  it('loops: each detection with its kind, count and waste; a row opens the run’s waterfall', async () => {
    await page.click('[data-testid="nav-loops"]');
    await page.waitForURL(/\/loops/);
    await ready('tile-loop-totals', 'tile-loop-kinds', 'tile-loop-detections');
    const loops = await api<Loops>('loops', { orderBy: 'wasted_cost', limit: '50', offset: '0' });
    const rows = await page.$$eval('[data-testid="loop-row"]', (els) =>
      els.map((el) => ({
        runId: el.getAttribute('data-run-id'),
        kind: el.getAttribute('data-kind'),
        count: Number(el.getAttribute('data-count')),
        wastedNs: Number(el.getAttribute('data-wasted-ns')),
        wastedCostUsd: Number(el.getAttribute('data-wasted-usd')),
      })),
    );
    expect(rows.map(({ wastedCostUsd: _usd, ...r }) => r)).toEqual(
      loops.detections.map((d) => ({ runId: d.runId, kind: d.kind, count: d.count, wastedNs: d.wastedNs })),
    );
    rows.forEach((r, i) => expectUsd(r.wastedCostUsd, loops.detections[i]?.wastedCostUsd));
    expect(await value('kpi-looping-runs')).toBe(loops.overall.runsFlagged);
    expect(await value('kpi-loop-wasted-time')).toBe(loops.overall.wastedNs);
    // the looping runs' whole cost beside the repeats' own: in the demo the repeated plans' model calls are below them
    const cost = await api<{ looping: { costUsd: number; failedUsd: number } }>('cost/summary');
    await page.waitForSelector('[data-testid="kpi-looping-runs-usd"]');
    expectUsd(await value('kpi-looping-runs-usd'), cost.looping.costUsd + cost.looping.failedUsd);
    expect(cost.looping.costUsd + cost.looping.failedUsd).toBeGreaterThan(loops.overall.wastedCostUsd);
    // kinds without detections waste no time: a bare 0, not "0 ns"
    const wastedTimes = await page.$$eval('[data-testid="loop-kind-row"]', (els) =>
      els.map((el) => [el.getAttribute('data-kind'), el.querySelector('td:nth-child(4)')?.textContent] as const),
    );
    const idle = wastedTimes.filter(([kind]) => loops.byKind[kind ?? '']?.wastedNs === 0);
    expect(idle.length).toBeGreaterThan(0);
    for (const [kind, text] of idle) expect(text, kind ?? '').toBe('0');
    // ordered by cost, not by time: the pager says previous / next
    expect(loops.total).toBeGreaterThan(50);
    expect(await page.textContent('[data-testid="pager"]')).toContain('Next →');
    expect(await page.textContent('[data-testid="pager"]')).not.toContain('Older');
    await shot('loops');

    const first = rows[0]!;
    await page.click(`[data-testid="loop-row"][data-run-id="${first.runId}"] td:nth-child(2)`);
    await page.waitForURL(new RegExp(`/runs/${first.runId}`));
    await page.waitForSelector('[data-testid="waterfall-row"]');
    expect(await page.getAttribute('[data-testid="run-header"]', 'data-run-id')).toBe(first.runId);
    expect((await page.$$('[data-testid="waterfall-row"]')).length).toBeGreaterThan(first.count);
    // the run's loops above the waterfall, their evidence spans marked in it
    await page.waitForSelector('[data-testid="run-loop"]');
    const mine = loops.detections.filter((d) => d.runId === first.runId);
    const banner = await page.$$eval('[data-testid="run-loop"]', (els) =>
      els.map((el) => [el.getAttribute('data-kind'), Number(el.getAttribute('data-count'))]),
    );
    expect(banner.length).toBeGreaterThanOrEqual(mine.length);
    for (const d of mine) expect(banner).toContainEqual([d.kind, d.count]);
    const marked = await page.$$eval('[data-testid="waterfall-row"]', (els) =>
      els.filter((el) => el.getAttribute('data-loop') !== '').map((el) => el.getAttribute('data-span-id')),
    );
    for (const id of loops.detections[0]!.evidence.spanIds) expect(marked).toContain(id);
    // the demo keeps what its agents saw: the repeated calls side by side, the same as the first
    await page.waitForSelector('[data-testid="run-loops"][data-content="ready"]');
    await page.waitForSelector('[data-testid="loop-evidence"]');
    const calls = await page.$$eval('[data-testid="loop-call"]', (els) =>
      els.map((el) => ({
        same: el.getAttribute('data-same'),
        kept: el.querySelector('[data-testid="loop-call-input"], [data-testid="loop-call-output"]') !== null,
      })),
    );
    expect(calls.filter((c) => c.kept).length).toBeGreaterThanOrEqual(3);
    expect(calls.filter((c) => c.kept && c.same === 'true').length).toBeGreaterThanOrEqual(2);
    await shot('run-from-loops');

    // the run's own span keeps no content: said so
    await page.click('[data-testid="waterfall-row"][data-step-kind="run"]');
    await page.waitForSelector('[data-testid="span-content"][data-state="none"]', { timeout: 10_000 });
    const fields = await page.$$eval('[data-testid="span-panel"] .field-row', (els) =>
      els.map((el) => [el.querySelector('dt')?.textContent, el.querySelector('dd')?.textContent]),
    );
    expect(fields).toContainEqual(['Starts at', '+0']);
    // beside the panel, no span's name or error is cut short
    const cut = await page.$$eval('[data-testid="waterfall"] .wf-name, [data-testid="waterfall"] .wf-error', (els) =>
      els.filter((el) => el.scrollWidth > el.clientWidth).map((el) => el.textContent),
    );
    expect(cut).toEqual([]);
    await shot('run-from-loops-panel');
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid="span-panel"]', { state: 'detached', timeout: 10_000 });
    expect(new URL(page.url()).searchParams.has('span')).toBe(false);
  });

  it('sessions: the support bot’s conversations, as the API counts them', async () => {
    await page.click('[data-testid="nav-sessions"]');
    await page.waitForURL(/\/sessions/);
    await page.waitForSelector('[data-testid="session-row"]');
    const sessions = await api<{ sessions: { sessionId: string; runs: number; agents: string[] }[]; total: number }>(
      'sessions',
      { limit: '50' },
    );
    expect(sessions.total).toBeGreaterThan(1);
    expect(sessions.sessions.every((s) => s.agents.join() === 'triage-ticket')).toBe(true);
    const rows = await page.$$eval('[data-testid="session-row"]', (els) =>
      els.map((el) => [el.getAttribute('data-session-id'), Number(el.getAttribute('data-runs'))]),
    );
    expect(rows).toEqual(sessions.sessions.map((s) => [s.sessionId, s.runs]));
    await shot('sessions');
  });

  it('settings in open mode: says that every span goes to the project default, and that keys need --auth keys', async () => {
    await page.click('[data-testid="nav-settings"]');
    await page.waitForURL(/\/settings/);
    await page.waitForSelector('[data-testid="new-project"]');
    const note = await page.textContent('[data-testid="open-mode-note"]');
    expect(note).toContain('--auth none');
    expect(note).toContain('default');
    expect(note).toContain('--auth keys');
    await shot('settings-open-mode');
  });

  it('cost: spend, cost per run and the breakdown by model', async () => {
    await page.goBack();
    await page.click('[data-testid="nav-cost"]');
    await page.waitForURL(/\/cost/);
    await ready(
      'tile-cost-summary',
      'tile-cost-distribution',
      'tile-cost-series',
      'tile-cost-model',
      'tile-cost-step',
      'tile-cost-tool',
    );
    const cost = await api<Cost>('cost/summary');
    expectUsd(await value('kpi-cost-total'), cost.totalUsd);
    expectUsd(await value('kpi-cost-p50'), cost.perRun.p50Usd);
    expectUsd(await value('kpi-cost-p99'), cost.perRun.p99Usd);
    expectUsd(await value('kpi-cost-wasted'), cost.wasted.totalUsd);
    expectUsd(await value('kpi-cost-looping'), cost.looping.costUsd + cost.looping.failedUsd);
    // the demo's looping runs include some that failed and some that did not
    expect(cost.looping.failedRuns).toBeGreaterThan(0);
    expect(cost.looping.runs).toBeGreaterThan(0);
    const { runs: okRuns, failedRuns } = cost.looping;
    expect(await page.textContent('[data-testid="kpi-cost-looping"] .kpi-detail')).toMatch(
      new RegExp(
        `^${okRuns + failedRuns} runs: ${failedRuns} failed \\(\\$\\d+\\.\\d\\d\\), ${okRuns} did not \\(\\$\\d+\\.\\d\\d\\)$`,
      ),
    );
    // amounts for the whole window all in cents (the demo spends more than a dollar)
    expect(cost.totalUsd).toBeGreaterThan(1);
    const amounts = await page.$$eval(
      [
        '[data-testid="kpi-cost-total"] .kpi-value',
        '[data-testid="kpi-cost-wasted"] .kpi-value',
        '[data-testid="kpi-cost-wasted"] .kpi-detail',
        '[data-testid="kpi-cost-looping"] .kpi-value',
        '[data-testid="kpi-cost-looping"] .kpi-detail',
        '[data-testid="cost-model-row"] .bar-value',
      ].join(', '),
      (els) => els.flatMap((el) => el.textContent?.match(/\$[\d,.]*\d/g) ?? []),
    );
    expect(amounts.length).toBeGreaterThan(6);
    for (const amount of amounts) expect(amount).toMatch(/^\$(?:0|[\d,]+\.\d\d)$/);
    const histogram = await api<{ runs: number; buckets: { runs: number }[] }>('cost/histogram', { buckets: '40' });
    const bars = await page.$$eval('[data-testid="cost-histogram-bar"]', (els) =>
      els.map((el) => Number(el.getAttribute('data-value'))),
    );
    expect(bars).toEqual(histogram.buckets.map((b) => b.runs));
    const marks = await page.$$eval('[data-testid="cost-histogram-mark"]', (els) =>
      els.map((el) => [el.getAttribute('data-key'), Number(el.getAttribute('data-value'))] as const),
    );
    expect(marks.map(([key]) => key)).toEqual(['p50', 'p95', 'p99']);
    marks.forEach(([, usd], i) => expectUsd(usd, [cost.perRun.p50Usd, cost.perRun.p95Usd, cost.perRun.p99Usd][i]));
    const byModel = await api<{ rows: { key: string; costUsd: number }[] }>('cost/breakdown', { groupBy: 'model' });
    const rows = await page.$$eval('[data-testid="cost-model-row"]', (els) =>
      els.map((el) => [el.getAttribute('data-key'), Number(el.getAttribute('data-value'))]),
    );
    expect(rows.map(([key]) => key)).toEqual(byModel.rows.map((r) => r.key));
    rows.forEach(([, usd], i) => expectUsd(Number(usd), byModel.rows[i]?.costUsd));
    await shot('cost');
  });

  it('runs: the same runs as the API, with each failure’s primary cause', async () => {
    await page.click('[data-testid="nav-runs"]');
    await page.waitForURL(/\/runs/);
    await page.waitForSelector('[data-testid="run-row"]');
    const runs = await api<{ runs: { runId: string; outcome: string }[]; total: number }>('runs', { limit: '50' });
    expect(runs.total).toBe(DEMO_RUNS);
    // causes are filled in once /failures/runs answers
    await page.waitForFunction(() =>
      Array.from(document.querySelectorAll('[data-testid="run-row"][data-outcome="failure"]')).every(
        (el) => el.getAttribute('data-cause') !== '',
      ),
    );
    const rows = await page.$$eval('[data-testid="run-row"]', (els) =>
      els.map((el) => [el.getAttribute('data-run-id'), el.getAttribute('data-outcome'), el.getAttribute('data-cause')]),
    );
    const causes = new Map(
      (await api<{ runs: { runId: string; cause: string }[] }>('failures/runs')).runs.map((r) => [r.runId, r.cause]),
    );
    expect(rows).toEqual(
      runs.runs.map((r) => [r.runId, r.outcome, r.outcome === 'failure' ? (causes.get(r.runId) ?? null) : '']),
    );
    // a run that succeeded after a step failed shows that error as recovered from, not as its failure
    const errors = await page.$$eval('[data-testid="run-row"]', (els) =>
      els.flatMap((el) => {
        const chip = el.querySelector('[data-testid="run-error-type"]');
        return chip === null
          ? []
          : [[el.getAttribute('data-outcome'), chip.classList.contains('recovered'), chip.getAttribute('title')]];
      }),
    );
    expect(errors.some(([outcome]) => outcome === 'success')).toBe(true);
    expect(await page.textContent('[data-testid="pager"]')).toContain('Older →');
    for (const [outcome, recovered, title] of errors) {
      expect(recovered).toBe(outcome === 'success');
      expect(title).toMatch(outcome === 'success' ? /^Recovered from / : /^(Failed with|Error so far) /);
    }
    await shot('runs-page');

    // the list takes the shared name filters too
    await page.fill('[data-testid="filter-agent"]', 'triage-ticket');
    await page.waitForURL(/agent=triage-ticket/);
    const triage = await api<{ runs: { runId: string }[]; total: number }>('runs', {
      limit: '50',
      agent: 'triage-ticket',
    });
    expect(triage.total).toBeGreaterThan(0);
    expect(triage.total).toBeLessThan(DEMO_RUNS);
    // the whole list, not its first row: the newest run of all may be a triage-ticket run, so the unfiltered list can start the same
    const triageIds = triage.runs.map((r) => r.runId);
    await page.waitForFunction(
      (ids) =>
        Array.from(document.querySelectorAll('[data-testid="run-row"]'), (el) => el.getAttribute('data-run-id')).join(
          ',',
        ) === ids.join(','),
      triageIds,
    );
    const filteredRows = await page.$$eval('[data-testid="run-row"]', (els) =>
      els.map((el) => el.getAttribute('data-run-id')),
    );
    expect(filteredRows).toEqual(triageIds);
    await page.fill('[data-testid="filter-agent"]', '');
    await page.waitForURL((url) => !url.search.includes('agent='));
  });

  it('a filter goes into the URL and the data, and the nav carries it to the next page', async () => {
    await page.click('[data-testid="nav-overview"]');
    await page.waitForURL((url) => url.pathname === '/');
    await ready('tile-success');
    const all = await value('kpi-runs');
    await page.fill('[data-testid="filter-service"]', 'support-bot');
    await page.waitForURL(/service=support-bot/);
    const filtered = await api<Summary>('reliability/summary', { service: 'support-bot' });
    const expected = filtered.runs.success + filtered.runs.failure;
    expect(expected).toBeGreaterThan(0);
    expect(expected).toBeLessThan(all);
    await page.waitForFunction(
      (n) => document.querySelector('[data-testid="kpi-runs"]')?.getAttribute('data-value') === String(n),
      expected,
    );
    expect(await value('kpi-observed')).toBe(filtered.observed.value);

    await page.click('[data-testid="nav-reliability"]');
    await page.waitForURL(/\/reliability\?.*service=support-bot/);
    await ready('tile-steps');
    await page.waitForFunction(
      (n) => document.querySelectorAll('[data-testid="step-row"]').length === n,
      filtered.steps.length,
    );
    const steps = await page.$$eval('[data-testid="step-row"]', (els) => els.map((el) => el.getAttribute('data-step')));
    expect(new Set(steps)).toEqual(new Set(filtered.steps.map((s) => s.stepName)));
    expect(await page.inputValue('[data-testid="filter-service"]')).toBe('support-bot');

    // the time range too: one hour, in the URL and in the window the page queries
    await page.click('[data-testid="range-1h"]');
    await page.waitForURL(/range=1h/);
    await page.waitForSelector('[data-testid="time-window"][data-range="1h"]');
    const from = Number(await page.getAttribute('[data-testid="time-window"]', 'data-from'));
    const to = Number(await page.getAttribute('[data-testid="time-window"]', 'data-to'));
    expect(to - from).toBe(3_600_000);
    await shot('reliability-filtered');
  });

  it('an inverted custom range says so, instead of showing another window', async () => {
    // swapped, the bounds hold every demo run
    const now = Date.now();
    const later = new Date(now + 300_000).toISOString();
    const earlier = new Date(now - 3 * 3_600_000).toISOString();
    await page.goto(`${telltale.url}/runs?range=custom&from=${later}&to=${earlier}`);
    await page.waitForSelector('[data-testid="range-inverted"]');
    expect(await page.textContent('[data-testid="range-inverted"]')).toContain('The time range is inverted');
    expect(await page.$('[data-testid="run-row"]')).toBeNull();
    expect(await page.$('[data-testid="status-empty"]')).toBeNull();
    await page.click('[data-testid="range-swap"]');
    await page.waitForSelector('[data-testid="run-row"]');
    const search = new URL(page.url()).searchParams;
    expect(Date.parse(search.get('from') ?? '')).toBe(Date.parse(earlier));
    expect(Date.parse(search.get('to') ?? '')).toBe(Date.parse(later));
    expect(await page.$('[data-testid="range-inverted"]')).toBeNull();
  });

  it('fits a phone: no page scrolls sideways, and a run’s waterfall keeps its labels apart and shows the span tapped', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      const fits = async (what: string): Promise<void> => {
        const [scrollWidth, innerWidth] = await page.evaluate(() => [
          document.documentElement.scrollWidth,
          window.innerWidth,
        ]);
        expect(scrollWidth, what).toBeLessThanOrEqual(innerWidth);
      };
      const pages: [string, string[]][] = [
        [
          '/',
          ['[data-testid="tile-success"][data-status="ready"]', '[data-testid="tile-failures"][data-status="ready"]'],
        ],
        ['/reliability', ['[data-testid="tile-steps"][data-status="ready"]']],
        [
          '/latency',
          ['[data-testid="tile-tail"][data-status="ready"]', '[data-testid="tile-latency-table"][data-status="ready"]'],
        ],
        ['/loops', ['[data-testid="tile-loop-kinds"][data-status="ready"]', '[data-testid="loop-row"]']],
        [
          '/cost',
          [
            '[data-testid="tile-cost-summary"][data-status="ready"]',
            '[data-testid="tile-cost-tool"][data-status="ready"]',
          ],
        ],
        ['/runs', ['[data-testid="run-row"]']],
        ['/sessions', ['[data-testid="session-row"]']],
        ['/alerts', ['[data-testid="alert-rules-table"], [data-testid="status-empty"]']],
        ['/settings', ['[data-testid="new-project"]']],
      ];
      for (const [path, ready] of pages) {
        await page.goto(`${telltale.url}${path}`);
        for (const selector of ready) await page.waitForSelector(selector);
        await fits(path);
      }
      // the nav scrolls within itself, the current page's link in view
      const settings = await page.locator('[data-testid="nav-settings"]').boundingBox();
      expect(settings!.x + settings!.width).toBeLessThanOrEqual(390);

      await page.goto(`${telltale.url}/loops`);
      await page.waitForSelector('[data-testid="loop-row"]');
      const runId = (await api<Loops>('loops', { orderBy: 'wasted_cost', limit: '1' })).detections[0]!.runId;
      await page.goto(`${telltale.url}/runs/${runId}`);
      await page.waitForSelector('[data-testid="trace"][data-loops="ready"]');
      await page.waitForSelector('[data-testid="waterfall-row"][data-loop]:not([data-loop=""])');
      await fits('run detail');
      // each span's duration clear of its name and badges, the axis labels clear of each other
      const overlaps = await page.$$eval('[data-testid="waterfall-row"]', (rows) =>
        rows.flatMap((row) => {
          const d = row.querySelector('.wf-duration')!.getBoundingClientRect();
          return Array.from(row.querySelectorAll('.wf-label-cell > *'))
            .filter((el) => {
              const r = el.getBoundingClientRect();
              return r.right > d.left && r.left < d.right && r.bottom > d.top && r.top < d.bottom;
            })
            .map((el) => `${row.getAttribute('data-span-id')}: ${el.textContent}`);
        }),
      );
      expect(overlaps).toEqual([]);
      const ticks = await page.$$eval('[data-testid="waterfall"] .wf-tick-label', (els) =>
        els.map((el) => el.getBoundingClientRect()).map((r) => [r.left, r.right] as const),
      );
      expect(ticks.length).toBeGreaterThan(1);
      for (let i = 1; i < ticks.length; i++) expect(ticks[i]![0]).toBeGreaterThanOrEqual(ticks[i - 1]![1]);
      await shot('run-phone');

      // a tapped span's details open below the waterfall: scrolled into view; Esc closes them
      const tool = page.locator('[data-testid="waterfall-row"][data-step-kind="tool"]').first();
      const spanId = await tool.getAttribute('data-span-id');
      await tool.click();
      await page.waitForSelector(`[data-testid="span-panel"][data-span-id="${spanId}"]`);
      await page.waitForFunction(
        () => {
          const top = document.querySelector('[data-testid="span-panel"]')!.getBoundingClientRect().top;
          return top >= 0 && top < window.innerHeight / 2;
        },
        undefined,
        { timeout: 10_000 },
      );
      await shot('run-phone-span');
      await page.keyboard.press('Escape');
      await page.waitForSelector('[data-testid="span-panel"]', { state: 'detached', timeout: 10_000 });
    } finally {
      await page.setViewportSize({ width: 1440, height: 900 });
    }
  });

  it('no page logged an error, threw, or met a failed request', () => {
    expect(problems).toEqual([]);
  });
});
