import { join } from 'node:path';
import { createTelltale, createTracerProvider } from '@telltale/sdk';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS_DIR, closeChromium, launchChromium } from './harness/browser.js';
import { TelltaleProcess } from './harness/TelltaleProcess.js';

interface RunSummary {
  runId: string;
  name: string;
  outcome: string;
  spans: number;
}

/** Seeds two successful runs and one that fails after a side effect, through the real SDK and OTLP. */
async function seed(url: string): Promise<void> {
  const provider = createTracerProvider({ service: 'browser-seed', endpoint: url });
  const tt = createTelltale({ tracerProvider: provider });
  for (const ticket of [1, 2]) {
    await tt.run('triage-agent', async () => {
      await tt.plan('plan', () => 'ok', { state: { ticket } });
      await tt.tool('lookup', { ticket }, () => 'found', { retry: { attempts: 2 } });
      await tt.llm('summarise', { model: 'gpt-4o-mini' }, (s) =>
        s.recordUsage({ inputTokens: 500, outputTokens: 100, costUsd: 0.002 }),
      );
    });
  }
  await tt
    .run('refund-agent', async () => {
      await tt.act('charge-card', () => 'charged', { sideEffect: true });
      await tt.tool('send-email', { to: 'x' }, () => {
        throw Object.assign(new Error('smtp down'), { name: 'SmtpError' });
      });
    })
    .catch(() => undefined);
  await provider.forceFlush();
  await provider.shutdown();
}

describe('dashboard in a real browser', () => {
  let telltale: TelltaleProcess;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    telltale = await TelltaleProcess.start();
    await seed(telltale.url);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  });
  afterAll(async () => {
    await closeChromium(browser);
    await telltale?.dispose();
  });

  it('lists the same runs as the API, newest first', async () => {
    const api = await telltale.getJson<{ runs: RunSummary[]; total: number }>('/api/v1/runs?limit=50');
    expect(api.body.total).toBe(3);
    await page.goto(`${telltale.url}/runs`);
    await page.waitForSelector('[data-testid="run-row"]');
    const rows = await page.$$eval('[data-testid="run-row"]', (els) =>
      els.map((el) => [el.getAttribute('data-run-id'), el.getAttribute('data-outcome')]),
    );
    expect(rows).toEqual(api.body.runs.map((r) => [r.runId, r.outcome]));
    await page.screenshot({ path: join(ARTIFACTS_DIR, 'runs.png'), fullPage: true });
  });

  it('filters by outcome and keeps the filter in the URL', async () => {
    await page.selectOption('[data-testid="filter-outcome"]', 'failure');
    await page.waitForURL(/outcome=failure/);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="run-row"]').length === 1);
    const outcomes = await page.$$eval('[data-testid="run-row"]', (els) =>
      els.map((el) => el.getAttribute('data-outcome')),
    );
    expect(outcomes).toEqual(['failure']);
  });

  it('opens a run and shows its span tree as a waterfall, errors highlighted', async () => {
    const api = await telltale.getJson<{ runs: RunSummary[] }>('/api/v1/runs?outcome=failure');
    const failed = api.body.runs[0]!;
    await page.click('[data-testid="run-row"]');
    await page.waitForURL(new RegExp(`/runs/${failed.runId}`));
    await page.waitForSelector('[data-testid="waterfall-row"]');
    const header = await page.getAttribute('[data-testid="run-header"]', 'data-run-id');
    expect(header).toBe(failed.runId);
    const rows = await page.$$eval('[data-testid="waterfall-row"]', (els) =>
      els.map((el) => ({
        depth: el.getAttribute('data-depth'),
        kind: el.getAttribute('data-step-kind'),
        error: el.getAttribute('data-error'),
      })),
    );
    expect(rows).toEqual([
      { depth: '0', kind: 'run', error: 'true' },
      { depth: '1', kind: 'act', error: 'false' },
      { depth: '1', kind: 'tool', error: 'true' },
    ]);
    await page.click('[data-testid="waterfall-row"][data-step-kind="tool"]');
    await page.waitForSelector('[data-testid="span-panel"]');
    expect(await page.textContent('[data-testid="span-panel"]')).toContain('SmtpError');
    await page.screenshot({ path: join(ARTIFACTS_DIR, 'run-detail.png'), fullPage: true });
  });
});
