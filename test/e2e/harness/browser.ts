import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserServer } from 'playwright-core';
import { withinMs } from './withinMs.js';

/** Screenshots land here (kept as CI artifacts). */
export const ARTIFACTS_DIR = fileURLToPath(new URL('../../../test-results/screenshots/', import.meta.url));

/** How long a browser gets to close before its process is killed. */
const CLOSE_MS = 10_000;

/** The browser process behind each connected browser, so a teardown can kill it. */
const servers = new WeakMap<Browser, BrowserServer>();

/**
 * Debian's Chromium, headless, with the background-networking features off
 * (this machine's network is closed; Chromium would otherwise keep dialling out).
 * Launched as a browser server and connected to, so `closeChromium` holds the
 * process and can kill it. Playwright gives each launch a fresh temporary profile.
 */
export async function launchChromium(): Promise<Browser> {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const server = await chromium.launchServer({
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
  try {
    const browser = await chromium.connect(server.wsEndpoint(), { timeout: 30_000 });
    servers.set(browser, server);
    return browser;
  } catch (err) {
    await server.kill();
    throw err;
  }
}

/**
 * Closes a browser from `launchChromium` within CLOSE_MS; past that (a hung
 * renderer, a stuck connection) its process tree is killed. Never throws, so
 * the rest of a teardown runs.
 */
export async function closeChromium(browser: Browser | undefined): Promise<void> {
  if (browser === undefined) return;
  const server = servers.get(browser);
  const closed = await withinMs(
    CLOSE_MS,
    (async () => {
      await browser.close();
      await server?.close();
    })(),
  ).catch(() => false);
  if (!closed) {
    console.warn(`chromium did not close within ${CLOSE_MS} ms: killed`);
    await withinMs(CLOSE_MS, server?.kill() ?? Promise.resolve()).catch(() => false);
  }
}
