import { chromium, type Browser } from 'playwright-core';
import type { DashboardPage } from './dashboardPages.js';
import { loadAverage } from './machineFacts.js';
import { processCpuSeconds } from './ProcessSampler.js';
import { READ_RECORDING, RECORDING_DONE, recorderScript, type Recording } from './pageRecorder.js';

/** One navigation of one page. */
export interface Visit {
  /** ms since navigation start; NaN when it never came (timeout). */
  firstDataMs: number;
  allDataMs: number;
  recording: Recording;
  timedOut: boolean;
  /** 1-minute load average when the navigation started. */
  loadAverage: number;
  /** CPU the server used from navigation start until all data was on screen (ms; /proc, 10 ms ticks): its work for the page, whatever the neighbours do. */
  serverCpuMs: number;
}

export interface PageVisits {
  page: DashboardPage;
  url: string;
  warmup: Visit;
  visits: Visit[];
}

export const VIEWPORT = { width: 1440, height: 900 };

/**
 * Debian's Chromium, headless, as the browser tests launch it (no download:
 * `scripts/ensureChromium.mjs` installs the distribution's package), with the
 * background-networking features off.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.TELLTALE_CHROMIUM ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/**
 * One cold navigation: a new browser context (empty HTTP cache, empty
 * storage, so the dashboard's query cache starts empty too), the recorder
 * installed before the page's scripts, then `goto` and a wait until every
 * mark of the page has been painted (or `timeoutMs`).
 */
export async function visit(
  browser: Browser,
  page: DashboardPage,
  url: string,
  readKey: string | undefined,
  timeoutMs: number,
  serverPid: number,
): Promise<Visit> {
  const load = loadAverage();
  const context = await browser.newContext({ viewport: VIEWPORT });
  try {
    await context.addInitScript({ content: recorderScript(page.marks, readKey) });
    const tab = await context.newPage();
    const cpuBefore = processCpuSeconds(serverPid);
    await tab.goto(url, { waitUntil: 'commit' });
    let timedOut = false;
    try {
      await tab.waitForFunction(RECORDING_DONE, undefined, { timeout: timeoutMs, polling: 50 });
    } catch {
      timedOut = true;
    }
    const serverCpuMs = (processCpuSeconds(serverPid) - cpuBefore) * 1000;
    const recording = await tab.evaluate<Recording>(READ_RECORDING);
    const at = (first: boolean | undefined): number[] =>
      page.marks
        .filter((m) => first === undefined || m.first === first)
        .map((m) => recording.marks[m.name] ?? Number.NaN);
    const firsts = at(true);
    const all = at(undefined);
    const seen = firsts.filter((t) => Number.isFinite(t));
    return {
      firstDataMs: seen.length === 0 ? Number.NaN : Math.min(...seen),
      allDataMs: all.some((t) => !Number.isFinite(t)) ? Number.NaN : Math.max(...all),
      recording,
      timedOut,
      loadAverage: load,
      serverCpuMs,
    };
  } finally {
    await context.close();
  }
}

/** A warm-up visit, then `navigations` measured cold visits, one after another. */
export async function visitPage(
  browser: Browser,
  page: DashboardPage,
  url: string,
  readKey: string | undefined,
  navigations: number,
  timeoutMs: number,
  serverPid: number,
): Promise<PageVisits> {
  const warmup = await visit(browser, page, url, readKey, timeoutMs, serverPid);
  const visits: Visit[] = [];
  for (let i = 0; i < navigations; i++) visits.push(await visit(browser, page, url, readKey, timeoutMs, serverPid));
  return { page, url, warmup, visits };
}
