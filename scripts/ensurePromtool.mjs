// The metrics tests check Telltale's /metrics output and its alerting rules
// with promtool (Debian's prometheus package). Installs it with apt when
// missing and we are allowed to.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const PROMTOOL = process.env.TELLTALE_PROMTOOL ?? '/usr/bin/promtool';

export function ensurePromtool() {
  if (existsSync(PROMTOOL)) return true;
  if (process.getuid?.() !== 0 || !existsSync('/usr/bin/apt-get')) {
    console.error(
      `promtool not found at ${PROMTOOL}; install Debian's prometheus package (the metrics tests need it).`,
    );
    return false;
  }
  console.log('Installing Debian prometheus (for promtool) for the metrics tests…');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update'], ['install', '-y', '--no-install-recommends', 'prometheus']]) {
    const r = spawnSync('apt-get', ['-q', ...args], { stdio: 'inherit', env });
    if (r.status !== 0) return false;
  }
  return existsSync(PROMTOOL);
}

if (import.meta.url === `file://${process.argv[1]}`) process.exit(ensurePromtool() ? 0 : 1);
