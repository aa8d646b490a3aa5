import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DASHBOARD_PAGES } from './dashboardPages.js';
import { renderDashboardReport } from './renderDashboardReport.js';
import { dashboardBenchOptions, runDashboardBench, SERVER_CLI, WEB_INDEX } from './runDashboardBench.js';

const CHROMIUM = process.env.TELLTALE_CHROMIUM ?? '/usr/bin/chromium';

// The smoke mode: 2,000 runs, one navigation per page, against the real
// server and dashboard in Chromium, so the bench keeps working. No speed
// assertions (timed tests flake on shared machines): it checks that every
// page showed all its data, with API calls behind it. Needs the build (the
// server's dist and the dashboard's).
describe.skipIf(!existsSync(SERVER_CLI) || !existsSync(WEB_INDEX) || !existsSync(CHROMIUM))(
  'the dashboard bench (smoke mode)',
  () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'telltale-dashbench-smoke-'));
    afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

    it('opens every page and times its first and last data', { timeout: 180_000 }, async () => {
      const report = await runDashboardBench({
        ...dashboardBenchOptions({ smoke: true, dataDir }),
        command: 'vitest smoke',
      });
      expect(report.pages.map((p) => p.name)).toEqual(DASHBOARD_PAGES.map((p) => p.name));
      expect(report.project.runs).toBeGreaterThan(0);
      expect(report.runs.largest.spans).toBeGreaterThanOrEqual(report.runs.typical.spans);
      for (const page of report.pages) {
        expect(page.timeouts, page.name).toBe(0);
        expect(page.problems, page.name).toEqual([]);
        expect(Number.isFinite(page.firstData.medianMs), page.name).toBe(true);
        expect(page.allData.medianMs, page.name).toBeGreaterThanOrEqual(page.firstData.medianMs);
        expect(page.apiCalls, page.name).toBeGreaterThan(0);
        expect(page.slowestApi, page.name).toBeDefined();
        for (const mark of page.marks) expect(Number.isFinite(mark.medianMs), `${page.name}: ${mark.name}`).toBe(true);
      }
      const text = renderDashboardReport(report);
      for (const page of report.pages) expect(text).toContain(`| ${page.name} |`);
    });
  },
);
