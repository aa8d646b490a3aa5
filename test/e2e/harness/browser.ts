import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';

/** Screenshots land here (kept as CI artifacts). */
export const ARTIFACTS_DIR = fileURLToPath(new URL('../../../test-results/screenshots/', import.meta.url));

/**
 * Debian's Chromium, headless, with the background-networking features off
 * (this machine's network is closed; Chromium would otherwise keep dialling out).
 * Playwright gives each launch a fresh temporary profile.
 */
export async function launchChromium(): Promise<Browser> {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
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
