import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTelltale, createTracerProvider } from '@telltale/sdk';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS_DIR, closeChromium, launchChromium } from './harness/browser.js';
import { runCli } from './harness/runCli.js';
import { TelltaleProcess } from './harness/TelltaleProcess.js';

describe('dashboard against a server with --auth keys', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'telltale-web-keys-'));
  let telltale: TelltaleProcess;
  let browser: Browser;
  let page: Page;
  let readKey = '';
  let runId = '';

  beforeAll(async () => {
    expect((await runCli(['projects', 'create', 'web', '--data-dir', dataDir])).code).toBe(0);
    const ingest = (
      await runCli(['keys', 'create', '--project', 'web', '--kind', 'ingest', '--data-dir', dataDir])
    ).stdout.trim();
    readKey = (
      await runCli(['keys', 'create', '--project', 'web', '--kind', 'read', '--data-dir', dataDir])
    ).stdout.trim();
    telltale = await TelltaleProcess.start({ dataDir, args: ['--auth', 'keys'] });
    const provider = createTracerProvider({ service: 'web-keys', endpoint: telltale.url, apiKey: ingest });
    const tt = createTelltale({ tracerProvider: provider });
    runId = await tt.run('keyed-agent', async (run) => {
      await tt.tool('lookup', { id: 1 }, () => 'found');
      return run.runId;
    });
    await provider.forceFlush();
    await provider.shutdown();
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  });
  afterAll(async () => {
    await closeChromium(browser);
    await telltale?.dispose();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("asks for a read key, then shows the key's project, and remembers the key", async () => {
    await page.goto(`${telltale.url}/runs`);
    await page.waitForSelector('[data-testid="read-key-input"]');
    expect(await page.textContent('[data-testid="status-error"]')).toContain('missing API key');
    expect(await page.$('[data-testid="run-row"]')).toBeNull();

    await page.fill('[data-testid="read-key-input"]', readKey);
    await page.click('[data-testid="read-key-submit"]');
    await page.waitForSelector('[data-testid="run-row"]');
    const rows = await page.$$eval('[data-testid="run-row"]', (els) => els.map((el) => el.getAttribute('data-run-id')));
    expect(rows).toEqual([runId]);
    await page.screenshot({ path: join(ARTIFACTS_DIR, 'runs-with-read-key.png'), fullPage: true });

    await page.reload();
    await page.waitForSelector('[data-testid="run-row"]');
    expect(await page.$('[data-testid="read-key-input"]')).toBeNull();
  });

  it('asks again when the stored key is refused', async () => {
    await page.evaluate(() => localStorage.setItem('telltale.readKey', 'tt_read_not-a-real-key'));
    await page.goto(`${telltale.url}/runs/${runId}`);
    await page.waitForSelector('[data-testid="read-key-input"]');
    expect(await page.textContent('[data-testid="status-error"]')).toContain('invalid API key');
    await page.fill('[data-testid="read-key-input"]', readKey);
    await page.click('[data-testid="read-key-submit"]');
    await page.waitForSelector('[data-testid="waterfall-row"]');
    expect(await page.getAttribute('[data-testid="run-header"]', 'data-run-id')).toBe(runId);
  });
});
