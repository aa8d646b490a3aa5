import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTelltale, createTracerProvider } from '@telltale/sdk';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS_DIR, closeChromium, launchChromium } from './harness/browser.js';
import { apiWithKey } from './harness/apiWithKey.js';
import { TelltaleProcess } from './harness/TelltaleProcess.js';

const ADMIN_KEY = 'e2e-admin-key-content-ui-0123456789abcdef';
const PLANTED_KEY = 'sk-proj-PlantedUiKey0123456789abcdefghij';
const PROJECT = 'support';
/** The server's per-span content limit here: room for the long prompt, not for the 20 kB page. */
const MAX_CONTENT_BYTES = 8192;
/** The end of a prompt longer than the panel's 2,000-character preview. */
const PROMPT_END = 'END-OF-LONG-PROMPT';
const LONG_PROMPT = `Refund order 42 please. ${'The parcel never arrived. '.repeat(100)}${PROMPT_END}`;

interface SpanJson {
  spanId: string;
  name: string;
}

/** Polls `fn` until it answers, within `timeoutMs`. */
async function pollUntil<T>(fn: () => Promise<T | undefined>, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('span content in the dashboard (SDK capture: full, real server, real Chromium)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'telltale-content-ui-'));
  let telltale: TelltaleProcess;
  let browser: Browser;
  let page: Page;
  let readKey = '';
  const runs = { failed: '', looping: '', big: '' };

  const api = <T>(method: string, path: string, key: string, body?: unknown) =>
    apiWithKey<T>(telltale.url, method, path, key, body);
  const spansOf = async (runId: string, count: number) =>
    pollUntil(async () => {
      const res = await api<{ spans?: SpanJson[] }>('GET', `/runs/${runId}`, readKey);
      return res.status === 200 && (res.body.spans?.length ?? 0) >= count ? res.body.spans : undefined;
    }, `${count} spans of run ${runId}`);
  const openSpan = async (runId: string, spanId: string) => {
    await page.goto(`${telltale.url}/runs/${runId}?span=${spanId}`);
    await page.waitForSelector(`[data-testid="span-panel"][data-span-id="${spanId}"]`, { timeout: 30_000 });
    await page.waitForSelector('[data-testid="span-content"]:not([data-state="loading"])', { timeout: 30_000 });
  };

  beforeAll(async () => {
    telltale = await TelltaleProcess.start({
      dataDir,
      args: ['--auth', 'keys', '--admin-key', ADMIN_KEY, '--content-max-bytes', String(MAX_CONTENT_BYTES)],
    });
    expect((await api('POST', '/admin/projects', ADMIN_KEY, { id: PROJECT })).status).toBe(201);
    const ingest = await api<{ secret: string }>('POST', `/admin/projects/${PROJECT}/keys`, ADMIN_KEY, {
      kind: 'ingest',
    });
    const read = await api<{ secret: string }>('POST', `/admin/projects/${PROJECT}/keys`, ADMIN_KEY, { kind: 'read' });
    readKey = read.body.secret;

    const provider = createTracerProvider({ endpoint: telltale.url, apiKey: ingest.body.secret, service: 'support' });
    const tt = createTelltale({ tracerProvider: provider, capture: 'full' });
    await tt
      .run('refund-agent', async (r) => {
        runs.failed = r.runId;
        await tt.llm('draft', { model: 'gpt-4o-mini' }, (step) => {
          step.recordInput([
            { role: 'system', content: 'You are a careful support agent.' },
            { role: 'user', content: LONG_PROMPT },
          ]);
          step.recordOutput([{ role: 'assistant', content: 'I will charge back the card.' }]);
        });
        await tt.tool('charge-back', { order: 42, header: `api_key=${PLANTED_KEY}` }, () => {
          throw Object.assign(new Error('card issuer declined the refund'), { name: 'RefundError' });
        });
      })
      .catch(() => undefined);
    await tt.run('search-agent', async (r) => {
      runs.looping = r.runId;
      for (let i = 0; i < 4; i++) await tt.tool('search_kb', { q: 'refund policy' }, () => ({ hits: [] }));
    });
    await tt.run('reader-agent', async (r) => {
      runs.big = r.runId;
      await tt.tool('fetch-page', { url: 'https://shop.test/orders/42' }, () => 'x'.repeat(20_000));
    });
    await provider.forceFlush();
    await provider.shutdown();

    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
    page.setDefaultTimeout(30_000);
    // the dashboard reads its read key from this browser's storage
    await page.addInitScript((key) => localStorage.setItem('telltale.readKey', key), readKey);
  }, 120_000);
  afterAll(async () => {
    await closeChromium(browser);
    await telltale?.dispose();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('says content is hidden until the project lets read keys read it', { timeout: 90_000 }, async () => {
    const spans = await spansOf(runs.failed, 3);
    const tool = spans.find((s) => s.name.includes('charge-back'))!;
    await openSpan(runs.failed, tool.spanId);
    expect(await page.getAttribute('[data-testid="span-content"]', 'data-state')).toBe('hidden');
    expect(await page.textContent('[data-testid="span-content"]')).toContain('Content hidden for this project');

    const put = await api<{ project: { contentReadable: boolean } }>('PUT', `/admin/projects/${PROJECT}`, ADMIN_KEY, {
      contentReadable: true,
    });
    expect(put.body.project.contentReadable).toBe(true);
  });

  it(
    'shows a failed step’s arguments beside its error, with the planted key redacted',
    { timeout: 90_000 },
    async () => {
      const spans = await spansOf(runs.failed, 3);
      const tool = spans.find((s) => s.name.includes('charge-back'))!;
      // content is written apart from the spans: wait until the API has it
      await pollUntil(async () => {
        const res = await api('GET', `/runs/${runs.failed}/spans/${tool.spanId}/content`, readKey);
        return res.status === 200 ? true : undefined;
      }, 'the failed step’s content');
      await openSpan(runs.failed, tool.spanId);
      expect(await page.getAttribute('[data-testid="span-content"]', 'data-state')).toBe('ready');
      const args = await page.textContent('[data-testid="content-input"] [data-testid="content-arguments"]');
      expect(args).toContain('"order"');
      expect(args).toContain('42');
      expect(args).toContain('api_key=[REDACTED:api_key]');
      const error = await page.textContent('[data-testid="content-error"]');
      expect(error).toContain('RefundError');
      expect(error).toContain('card issuer declined the refund');
      // beside, not below: the error box starts level with the input
      const inputBox = await page.locator('[data-testid="content-input"]').boundingBox();
      const errorBox = await page.locator('[data-testid="content-error"]').boundingBox();
      expect(errorBox!.x).toBeGreaterThan(inputBox!.x + inputBox!.width - 1);
      expect(Math.abs(errorBox!.y - inputBox!.y)).toBeLessThan(2);
      expect(await page.textContent('[data-testid="content-redacted"]')).toContain('1 string redacted');
      expect(await page.content()).not.toContain(PLANTED_KEY);
      await page.screenshot({ path: join(ARTIFACTS_DIR, 'content-failed-step.png'), fullPage: true });
    },
  );

  it(
    'labels a model call’s messages by role and cuts the long prompt until "show all"',
    { timeout: 90_000 },
    async () => {
      const spans = await spansOf(runs.failed, 3);
      const llm = spans.find((s) => s.name.includes('draft'))!;
      await pollUntil(async () => {
        const res = await api('GET', `/runs/${runs.failed}/spans/${llm.spanId}/content`, readKey);
        return res.status === 200 ? true : undefined;
      }, 'the model call’s content');
      await openSpan(runs.failed, llm.spanId);
      const messages = await page.$$eval('[data-testid="content-message"]', (els) =>
        els.map((el) => [el.getAttribute('data-role'), el.querySelector('.message-role')?.textContent]),
      );
      expect(messages).toEqual([
        ['system', 'System'],
        ['user', 'User'],
        ['assistant', 'Assistant'],
      ]);
      const output = await page.textContent('[data-testid="content-output"]');
      expect(output).toContain('I will charge back the card.');
      const user = page.locator('[data-testid="content-message"][data-role="user"]');
      expect(await user.textContent()).toContain('Refund order 42 please.');
      expect(await user.textContent()).not.toContain(PROMPT_END);
      await user.locator('[data-testid="show-all"]').click();
      await page.waitForFunction(
        (end) =>
          document.querySelector('[data-testid="content-message"][data-role="user"]')?.textContent?.includes(end) ===
          true,
        PROMPT_END,
        { timeout: 10_000 },
      );
      expect(await user.locator('[data-testid="show-all"]').count()).toBe(0);
    },
  );

  it('says so for a step without content, without a request that answers 404', { timeout: 90_000 }, async () => {
    const spans = await spansOf(runs.failed, 3);
    const index = await pollUntil(async () => {
      const res = await api<{ spanIds: string[] }>('GET', `/runs/${runs.failed}/content/spans`, readKey);
      return res.status === 200 && res.body.spanIds.length === 2 ? res.body.spanIds : undefined;
    }, 'the run’s content index');
    const named = (part: string) => spans.find((s) => s.name.includes(part))!.spanId;
    expect([...index].sort()).toEqual([named('draft'), named('charge-back')].sort());
    const bare = spans.find((s) => !index.includes(s.spanId))!;
    const failedRequests: string[] = [];
    page.on('response', (res) => {
      if (res.status() >= 400) failedRequests.push(`${res.status()} ${res.url()}`);
    });
    await openSpan(runs.failed, bare.spanId);
    expect(await page.getAttribute('[data-testid="span-content"]', 'data-state')).toBe('none');
    expect(await page.textContent('[data-testid="span-content"]')).toContain('No content kept for this step');
    expect(failedRequests).toEqual([]);
    page.removeAllListeners('response');
  });

  it('shows a looping run’s repeated tool arguments side by side', { timeout: 120_000 }, async () => {
    const spans = await spansOf(runs.looping, 5);
    const toolSpans = spans.filter((s) => s.name.includes('search_kb')).map((s) => s.spanId);
    expect(toolSpans).toHaveLength(4);
    await pollUntil(async () => {
      const res = await api<{ spans: unknown[] }>('GET', `/runs/${runs.looping}/content`, readKey);
      return res.status === 200 && res.body.spans.length === 4 ? true : undefined;
    }, 'the looping run’s content');
    await page.goto(`${telltale.url}/runs/${runs.looping}`);
    await page.waitForSelector('[data-testid="run-loop"][data-kind="repeated_action"]', { timeout: 60_000 });
    await page.waitForSelector('[data-testid="run-loop"] [data-testid="loop-call"]', { timeout: 30_000 });
    const calls = await page.$$eval(
      '[data-testid="run-loop"][data-kind="repeated_action"] [data-testid="loop-call"]',
      (els) =>
        els.map((el) => ({
          spanId: el.getAttribute('data-span-id'),
          same: el.getAttribute('data-same'),
          input: el.querySelector('[data-testid="loop-call-input"]')?.textContent ?? '',
          output: el.querySelector('[data-testid="loop-call-output"]')?.textContent ?? '',
        })),
    );
    expect(calls.length).toBeGreaterThanOrEqual(3);
    for (const call of calls) {
      expect(toolSpans).toContain(call.spanId);
      expect(call.input).toContain('"q"');
      expect(call.input).toContain('refund policy');
      expect(call.output).toContain('"hits"');
    }
    expect(calls.map((c) => c.same)).toEqual(calls.map((_, i) => (i === 0 ? 'false' : 'true')));
    // side by side: one row, left to right
    const boxes = await page
      .locator('[data-testid="loop-call"]')
      .evaluateAll((els) => els.map((el) => el.getBoundingClientRect()).map((r) => ({ x: r.x, y: r.y })));
    for (let i = 1; i < boxes.length; i++) {
      expect(boxes[i]!.y).toBeCloseTo(boxes[0]!.y, 0);
      expect(boxes[i]!.x).toBeGreaterThan(boxes[i - 1]!.x);
    }
    await page.screenshot({ path: join(ARTIFACTS_DIR, 'content-loop-evidence.png'), fullPage: true });
  });

  it('notes how much the server kept of content past its limit', { timeout: 90_000 }, async () => {
    const tool = (await spansOf(runs.big, 2)).find((s) => s.name.includes('fetch-page'));
    const stored = await pollUntil(async () => {
      const res = await api<{ content: { truncated: boolean; originalBytes: number } }>(
        'GET',
        `/runs/${runs.big}/spans/${tool!.spanId}/content`,
        readKey,
      );
      return res.status === 200 ? res.body.content : undefined;
    }, 'the big step’s content');
    expect(stored.truncated).toBe(true);
    await openSpan(runs.big, tool!.spanId);
    const note = (await page.textContent('[data-testid="content-truncated"]')) ?? '';
    const match = /truncated at storage \(([\d,]+) of ([\d,]+) bytes\)/.exec(note);
    expect(match).not.toBeNull();
    const [kept, original] = [match![1]!, match![2]!].map((n) => Number(n.replaceAll(',', '')));
    expect(original).toBe(stored.originalBytes);
    expect(original).toBeGreaterThan(20_000);
    expect(kept).toBeLessThanOrEqual(MAX_CONTENT_BYTES);
    expect(kept).toBeGreaterThan(MAX_CONTENT_BYTES / 2);
    // the cut result is itself longer than the preview: folded until "show all"
    expect(await page.locator('[data-testid="content-output"] [data-testid="show-all"]').count()).toBe(1);
  });
});
