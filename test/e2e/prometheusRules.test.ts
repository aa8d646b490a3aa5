import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { promtool } from './harness/promtool.js';
import { TelltaleProcess } from './harness/TelltaleProcess.js';

const RULES = fileURLToPath(new URL('../../deploy/prometheus/telltale-rules.yml', import.meta.url));
const RULES_TEST = fileURLToPath(new URL('../../deploy/prometheus/telltale-rules.test.yml', import.meta.url));
const OPERATIONS = fileURLToPath(new URL('../../docs/operations.md', import.meta.url));

describe('deploy/prometheus/telltale-rules.yml (alerts on Telltale itself)', () => {
  let telltale: TelltaleProcess;
  beforeAll(async () => {
    telltale = await TelltaleProcess.start({ args: ['--auth', 'none', '--grpc-port', 'off'] });
  });
  afterAll(async () => {
    await telltale?.dispose();
  });

  it('passes promtool check rules and its unit tests (promtool test rules)', async () => {
    const checked = await promtool(['check', 'rules', RULES]);
    expect(checked.code, `${checked.stdout}${checked.stderr}`).toBe(0);
    const tested = await promtool(['test', 'rules', RULES_TEST]);
    expect(tested.code, `${tested.stdout}${tested.stderr}`).toBe(0);
  });

  it('uses only metrics the server exports, and every alert has its section in docs/operations.md', async () => {
    const rules = readFileSync(RULES, 'utf8');
    const res = await fetch(`${telltale.url}/metrics`, { signal: AbortSignal.timeout(10_000) });
    expect(res.status).toBe(200);
    const exported = new Set([...(await res.text()).matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]!));
    const used = new Set([...rules.matchAll(/\btelltale_[a-z_]+/g)].map((m) => m[0]));
    expect(used.size).toBeGreaterThanOrEqual(6);
    for (const name of used) expect(exported, `${name} is not exported`).toContain(name);

    const docs = readFileSync(OPERATIONS, 'utf8');
    const alerts = [...rules.matchAll(/- alert: (\S+)/g)].map((m) => m[1]!);
    expect(alerts.length).toBeGreaterThanOrEqual(5);
    for (const alert of alerts) {
      expect(docs, `docs/operations.md has no section for ${alert}`).toMatch(new RegExp(`^#+ ${alert}$`, 'm'));
      expect(rules).toContain(`section "${alert}"`);
    }
    // every telltale_ metric the server exports is documented
    for (const name of exported)
      if (name.startsWith('telltale_'))
        expect(docs, `docs/operations.md does not list ${name}`).toContain(`\`${name}\``);
  });
});
