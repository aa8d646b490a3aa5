import { join } from 'node:path';
import { ExportResultCode } from '@opentelemetry/core';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS_DIR, closeChromium, launchChromium } from './harness/browser.js';
import { exportRunWithKey, pollUntil } from './harness/exportRunWithKey.js';
import { TelltaleProcess } from './harness/TelltaleProcess.js';

const ADMIN_KEY = 'browser-admin-key-0123456789abcdefghij';
const REFRESH_S = 1;
const DEADLINE_MS = REFRESH_S * 1000 + 8_000;

describe('settings page: projects and keys through the admin API (--auth keys --admin-key)', () => {
  let telltale: TelltaleProcess;
  let browser: Browser;
  let page: Page;
  let secret = '';
  let keyId = '';

  beforeAll(async () => {
    telltale = await TelltaleProcess.start({
      args: ['--auth', 'keys', '--admin-key', ADMIN_KEY, '--auth-refresh-seconds', String(REFRESH_S)],
    });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(15_000);
  });
  afterAll(async () => {
    await closeChromium(browser);
    await telltale?.dispose();
  });

  it('asks for the admin key, refuses a wrong one, and keeps the right one', async () => {
    await page.goto(`${telltale.url}/`);
    await page.click('[data-testid="nav-settings"]');
    await page.waitForSelector('[data-testid="admin-key-input"]');
    expect(await page.textContent('[data-testid="admin-key-message"]')).toContain('missing admin key');

    await page.fill('[data-testid="admin-key-input"]', 'not-the-admin-key-but-long-enough');
    await page.click('[data-testid="admin-key-submit"]');
    await page.waitForFunction(
      () =>
        document.querySelector('[data-testid="admin-key-message"]')?.textContent?.includes('invalid admin key') ===
        true,
    );

    await page.fill('[data-testid="admin-key-input"]', ADMIN_KEY);
    await page.click('[data-testid="admin-key-submit"]');
    await page.waitForSelector('[data-testid="new-project"]');
    expect(await page.textContent('[data-testid="status-empty"]')).toContain('No projects yet');
    expect(await page.$('[data-testid="open-mode-note"]')).toBeNull(); // keys mode
    await page.reload();
    await page.waitForSelector('[data-testid="new-project"]');
    expect(await page.$('[data-testid="admin-key-input"]')).toBeNull();
  });

  it('creates a project and an ingest key whose secret is shown once, and the key sends spans', async () => {
    await page.click('[data-testid="new-project"]');
    await page.fill('[data-testid="project-id-input"]', 'Bad Id');
    await page.click('[data-testid="project-create-submit"]');
    await page.waitForSelector('.alert-field-error');
    await page.fill('[data-testid="project-id-input"]', 'browser-fleet');
    await page.fill('[data-testid="project-name-input"]', 'Browser fleet');
    await page.click('[data-testid="project-create-submit"]');
    await page.waitForSelector('[data-testid="keys-section"][data-project-id="browser-fleet"]');
    expect(new URL(page.url()).searchParams.get('project')).toBe('browser-fleet');

    await page.click('[data-testid="new-key"]');
    await page.selectOption('[data-testid="key-kind"]', 'ingest');
    await page.fill('[data-testid="key-name"]', 'browser-made');
    await page.click('[data-testid="key-create-submit"]');
    await page.waitForSelector('[data-testid="key-secret"]');
    secret = await page.inputValue('[data-testid="key-secret"]');
    expect(secret).toMatch(/^tt_ingest_[0-9A-Za-z]{16}_[0-9A-Za-z]{43}$/);
    keyId = secret.split('_')[2]!;
    expect(await page.textContent('[data-testid="key-secret-reveal"]')).toContain('you won’t see it again');
    expect(await page.$('[data-testid="key-secret-copy"]')).not.toBeNull();
    await page.waitForSelector(`[data-testid="key-row"][data-key-id="${keyId}"][data-revoked="false"]`);
    await page.screenshot({ path: join(ARTIFACTS_DIR, 'settings-new-key.png'), fullPage: true });

    const accepted = await pollUntil(
      () => exportRunWithKey(telltale.url, secret),
      (r) => r.result.code === ExportResultCode.SUCCESS,
      DEADLINE_MS,
    );
    expect(accepted.value.result.code, String(accepted.value.result.error)).toBe(ExportResultCode.SUCCESS);

    // once dismissed (or after a reload) the secret is nowhere on the page
    await page.click('[data-testid="key-secret-dismiss"]');
    expect(await page.$('[data-testid="key-secret"]')).toBeNull();
    await page.reload();
    await page.waitForSelector(`[data-testid="key-row"][data-key-id="${keyId}"]`);
    const text = (await page.textContent('body')) ?? '';
    expect(text).toContain(`tt_ingest_${keyId}_…`);
    expect(text).not.toContain(secret.split('_')[3]!);
  });

  it('revokes the key after a confirmation, and OTLP with it is refused', async () => {
    await page.click(`[data-testid="key-row"][data-key-id="${keyId}"] [data-testid="key-revoke"]`);
    await page.waitForSelector('[data-testid="key-revoke-cancel"]');
    await page.click('[data-testid="key-revoke-cancel"]');
    expect(await page.$(`[data-testid="key-row"][data-key-id="${keyId}"][data-revoked="false"]`)).not.toBeNull();

    await page.click(`[data-testid="key-row"][data-key-id="${keyId}"] [data-testid="key-revoke"]`);
    await page.click('[data-testid="key-revoke-confirm"]');
    await page.waitForSelector('[data-testid="key-revoked"]');
    await page.waitForSelector(`[data-testid="key-row"][data-key-id="${keyId}"][data-revoked="true"]`);
    await page.screenshot({ path: join(ARTIFACTS_DIR, 'settings-revoked-key.png'), fullPage: true });

    const refused = await pollUntil(
      () => exportRunWithKey(telltale.url, secret),
      (r) => r.result.code === ExportResultCode.FAILED,
      DEADLINE_MS,
    );
    expect(refused.value.result.code).toBe(ExportResultCode.FAILED);
    expect(String(refused.value.result.error)).toMatch(/401|Unauthorized/);
  });
});
