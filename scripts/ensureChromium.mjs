// Browser tests drive Debian's Chromium through playwright-core (no browser
// download). Installs it with apt when missing and we are allowed to.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const CHROMIUM = process.env.TELLTALE_CHROMIUM ?? '/usr/bin/chromium';

export function ensureChromium() {
  if (existsSync(CHROMIUM)) return true;
  if (process.getuid?.() !== 0 || !existsSync('/usr/bin/apt-get')) {
    console.error(`Chromium not found at ${CHROMIUM}; install Debian's chromium package (browser tests need it).`);
    return false;
  }
  console.log('Installing Debian chromium for the browser tests…');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update'], ['install', '-y', '--no-install-recommends', 'chromium', 'fonts-dejavu-core']]) {
    const r = spawnSync('apt-get', ['-q', ...args], { stdio: 'inherit', env });
    if (r.status !== 0) return false;
  }
  return existsSync(CHROMIUM);
}
