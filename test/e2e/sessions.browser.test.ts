import { join } from 'node:path';
import { createTelltale, createTracerProvider } from '@telltale/sdk';
import { OtelAttr } from '@telltale/semconv';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS_DIR, closeChromium, launchChromium } from './harness/browser.js';
import { TelltaleProcess } from './harness/TelltaleProcess.js';

/*
 * Sessions in the dashboard against the real server: runs sent through the
 * SDK's OTLP exporter in two conversations (`gen_ai.conversation.id` on the
 * run's root span) plus one run in none. The sessions table must equal
 * GET /api/v1/sessions, a session's runs GET /api/v1/runs?session=, and a
 * run's page must name its session.
 */

interface SessionJson {
  sessionId: string;
  runs: number;
  successRuns: number;
  failureRuns: number;
  incompleteRuns: number;
  firstStartUnixNano: string;
  lastEndUnixNano: string;
  costUsd: number;
  inputTokens: number;
  outputTokens: number;
  agents: string[];
}
interface RunJson {
  runId: string;
  outcome: string;
  sessionId: string;
}

const ALPHA = 'conv-alpha-7f3c9e1b-4d2a-4b8e-9c61-0e5f2a7d8b90';
const BETA = 'conv-beta';

/** What each run does: its agent, conversation ('' for none), whether it fails, its model usage. */
const SCRIPT: readonly {
  agent: string;
  session: string;
  fails: boolean;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
}[] = [
  { agent: 'triage-agent', session: ALPHA, fails: false, inputTokens: 400, outputTokens: 80, costUsd: 0.0012 },
  { agent: 'triage-agent', session: BETA, fails: false, inputTokens: 300, outputTokens: 50, costUsd: 0.0009 },
  { agent: 'refund-agent', session: ALPHA, fails: true, inputTokens: 700, outputTokens: 120, costUsd: 0.0031 },
  { agent: 'triage-agent', session: '', fails: false, inputTokens: 100, outputTokens: 10, costUsd: 0.0002 },
  { agent: 'triage-agent', session: ALPHA, fails: false, inputTokens: 250, outputTokens: 40, costUsd: 0.0008 },
  { agent: 'refund-agent', session: BETA, fails: false, inputTokens: 900, outputTokens: 200, costUsd: 0.0045 },
];

/** Sends the script's runs, one a second on a virtual clock ending a minute ago, and waits for the server's acknowledgement. */
async function seed(url: string): Promise<void> {
  const provider = createTracerProvider({ service: 'sessions-seed', endpoint: url });
  let now = Date.now() - 60_000 - SCRIPT.length * 1_000;
  const tt = createTelltale({ tracerProvider: provider, clock: () => now });
  for (const run of SCRIPT) {
    const start = now;
    await tt
      .run(
        run.agent,
        async () => {
          await tt.llm('answer', { model: 'gpt-4o-mini' }, (s) => {
            now += 300;
            s.recordUsage({ inputTokens: run.inputTokens, outputTokens: run.outputTokens, costUsd: run.costUsd });
          });
          await tt.tool('lookup', { q: run.agent }, () => {
            now += 200;
            if (run.fails) throw Object.assign(new Error('lookup failed'), { name: 'ToolError' });
            return 'hit';
          });
        },
        run.session === '' ? {} : { attributes: { [OtelAttr.genAiConversationId]: run.session } },
      )
      .catch(() => undefined);
    now = start + 1_000;
  }
  await provider.forceFlush();
  await provider.shutdown();
}

describe('sessions in a real browser', () => {
  let telltale: TelltaleProcess;
  let browser: Browser;
  let page: Page;

  /** GET an API route for the window the page shows (read from the filter bar), plus extra parameters. */
  async function api<T>(path: string, extra: Record<string, string> = {}): Promise<T> {
    const from = await page.getAttribute('[data-testid="time-window"]', 'data-from');
    const to = await page.getAttribute('[data-testid="time-window"]', 'data-to');
    const query = new URLSearchParams({ from: from ?? '', to: to ?? '', ...extra });
    const res = await telltale.getJson<T>(`/api/v1/${path}?${query.toString()}`);
    expect(res.status, path).toBe(200);
    return res.body;
  }

  async function runRows(): Promise<{ runId: string | null; outcome: string | null; sessionId: string | null }[]> {
    return page.$$eval('[data-testid="run-row"]', (els) =>
      els.map((el) => ({
        runId: el.getAttribute('data-run-id'),
        outcome: el.getAttribute('data-outcome'),
        sessionId: el.getAttribute('data-session-id'),
      })),
    );
  }

  async function shot(name: string): Promise<void> {
    await page.screenshot({ path: join(ARTIFACTS_DIR, `${name}.png`), fullPage: true });
  }

  beforeAll(async () => {
    telltale = await TelltaleProcess.start();
    await seed(telltale.url);
    // acknowledged is not yet finalised: wait until both sessions count all their runs
    const deadline = Date.now() + 15_000;
    for (;;) {
      const { body } = await telltale.getJson<{ sessions: SessionJson[] }>('/api/v1/sessions');
      const counts = Object.fromEntries(
        body.sessions.map((s) => [s.sessionId, [s.successRuns, s.failureRuns, s.incompleteRuns]]),
      );
      if (JSON.stringify(counts) === JSON.stringify({ [BETA]: [2, 0, 0], [ALPHA]: [2, 1, 0] })) break;
      if (Date.now() > deadline) throw new Error(`sessions not stored: ${JSON.stringify(body)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  });
  afterAll(async () => {
    await closeChromium(browser);
    await telltale?.dispose();
  });

  it('the nav reaches Sessions after Runs, carrying the time range', async () => {
    await page.goto(`${telltale.url}/runs?range=6h`);
    await page.waitForSelector('[data-testid="run-row"]');
    const nav = await page.$$eval('.topnav-links a', (els) => els.map((el) => el.textContent));
    expect(nav.indexOf('Sessions')).toBe(nav.indexOf('Runs') + 1);
    await page.click('[data-testid="nav-sessions"]');
    await page.waitForURL(/\/sessions\?range=6h$/);
    expect(await page.getAttribute('[data-testid="time-window"]', 'data-range')).toBe('6h');
  });

  it('lists the sessions with the API’s numbers, most recently active first', async () => {
    await page.waitForSelector('[data-testid="session-row"]');
    const { sessions } = await api<{ sessions: SessionJson[]; total: number }>('sessions', {
      limit: '50',
      offset: '0',
    });
    expect(sessions.map((s) => s.sessionId)).toEqual([BETA, ALPHA]);
    const rows = await page.$$eval('[data-testid="session-row"]', (els) =>
      els.map((el) => ({
        sessionId: el.getAttribute('data-session-id'),
        runs: Number(el.getAttribute('data-runs')),
        successRuns: Number(el.getAttribute('data-success')),
        failureRuns: Number(el.getAttribute('data-failure')),
        incompleteRuns: Number(el.getAttribute('data-incomplete')),
        firstStartUnixNano: el.getAttribute('data-first-start'),
        lastEndUnixNano: el.getAttribute('data-last-end'),
        costUsd: Number(el.getAttribute('data-cost')),
        tokens: Number(el.getAttribute('data-tokens')),
        agents: el.querySelector('td:last-child')?.textContent,
      })),
    );
    expect(rows).toEqual(
      sessions.map((s) => ({
        sessionId: s.sessionId,
        runs: s.runs,
        successRuns: s.successRuns,
        failureRuns: s.failureRuns,
        incompleteRuns: s.incompleteRuns,
        firstStartUnixNano: s.firstStartUnixNano,
        lastEndUnixNano: s.lastEndUnixNano,
        costUsd: s.costUsd,
        tokens: s.inputTokens + s.outputTokens,
        agents: s.agents.join(', '),
      })),
    );
    // and the API's numbers are the seeded ones
    const alpha = sessions.find((s) => s.sessionId === ALPHA)!;
    const mine = SCRIPT.filter((r) => r.session === ALPHA);
    expect(alpha.runs).toBe(mine.length);
    expect(alpha.inputTokens + alpha.outputTokens).toBe(
      mine.reduce((sum, r) => sum + r.inputTokens + r.outputTokens, 0),
    );
    expect(alpha.costUsd).toBeCloseTo(
      mine.reduce((sum, r) => sum + r.costUsd, 0),
      10,
    );
    expect(alpha.agents).toEqual(['refund-agent', 'triage-agent']);
    await shot('sessions');
  });

  it('a session opens the runs list filtered to exactly its runs', async () => {
    await page.click(`[data-testid="session-row"][data-session-id="${ALPHA}"] [data-testid="session-link"]`);
    await page.waitForURL(
      (url) =>
        url.pathname === '/runs' && url.searchParams.get('session') === ALPHA && url.searchParams.get('range') === '6h',
    );
    await page.waitForFunction(
      (n) => document.querySelectorAll('[data-testid="run-row"]').length === n,
      SCRIPT.filter((r) => r.session === ALPHA).length,
    );
    const { runs, total } = await api<{ runs: RunJson[]; total: number }>('runs', {
      session: ALPHA,
      limit: '50',
      offset: '0',
    });
    expect(total).toBe(3);
    expect(await runRows()).toEqual(runs.map((r) => ({ runId: r.runId, outcome: r.outcome, sessionId: ALPHA })));
    expect(await page.getAttribute('[data-testid="filter-session"]', 'data-session-id')).toBe(ALPHA);
    // the Session column shows a shortened id with the whole one in its title
    const cell = await page.$('[data-testid="run-session-link"]');
    expect(await cell?.getAttribute('title')).toBe(ALPHA);
    expect((await cell?.textContent())?.length).toBeLessThan(ALPHA.length);
    await shot('session-runs');
  });

  it('a run names its session in the header, linking back to the session’s runs', async () => {
    const [first] = await runRows();
    await page.click(`[data-testid="run-row"][data-run-id="${first!.runId}"] .run-name`);
    await page.waitForURL(new RegExp(`/runs/${first!.runId}`));
    await page.waitForSelector('[data-testid="run-session"]');
    expect(await page.getAttribute('[data-testid="run-header"]', 'data-run-id')).toBe(first!.runId);
    expect(await page.getAttribute('[data-testid="run-session"]', 'data-session-id')).toBe(ALPHA);
    expect(await page.textContent('[data-testid="run-session-link"]')).toBe(ALPHA);
    await shot('session-run-detail');

    await page.click('[data-testid="run-session-link"]');
    await page.waitForURL((url) => url.pathname === '/runs' && url.searchParams.get('session') === ALPHA);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="run-row"]').length === 3);
  });

  it('removing the session filter lists every run again, with or without a session', async () => {
    await page.click('[data-testid="filter-session-remove"]');
    await page.waitForURL((url) => url.pathname === '/runs' && !url.searchParams.has('session'));
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid="run-row"]').length === n, SCRIPT.length);
    const { runs } = await api<{ runs: RunJson[] }>('runs', { limit: '50', offset: '0' });
    expect(await runRows()).toEqual(runs.map((r) => ({ runId: r.runId, outcome: r.outcome, sessionId: r.sessionId })));
    expect(runs.map((r) => r.sessionId)).toEqual([...SCRIPT].reverse().map((r) => r.session));
  });

  it('a service filter with no sessions shows the empty state, and clearing it brings them back', async () => {
    await page.goto(`${telltale.url}/sessions?service=nobody`);
    await page.waitForSelector('[data-testid="status-empty"]');
    expect(await page.textContent('[data-testid="status-empty"]')).toContain('No sessions match these filters');
    expect((await api<{ total: number }>('sessions', { service: 'nobody' })).total).toBe(0);
    await page.click('[data-testid="status-empty"] button');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="session-row"]').length === 2);
    expect(new URL(page.url()).searchParams.has('service')).toBe(false);
  });
});
