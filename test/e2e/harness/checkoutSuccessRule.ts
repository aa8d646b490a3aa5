import { expect } from 'vitest';
import { runCli } from './runCli.js';
import { sendAgentRuns } from './sendAgentRuns.js';

/**
 * Through the CLI against `endpoint`: a webhook destination `on-call` to
 * `receiverUrl`, and the rule `checkout success` (e2e_success < 0.8 over
 * 10 min, evaluated every second, at least 5 runs, no repeat, agent
 * `checkout`, plus `ruleArgs`) sending to it. What the two commands printed
 * that the tests read.
 */
export async function createCheckoutSuccessRule(
  endpoint: string,
  receiverUrl: string,
  ruleArgs: string[] = [],
): Promise<{ secret: string; destinationId: string; ruleJson: string }> {
  const created = await runCli([
    'alerts',
    'destinations',
    'create',
    '--endpoint',
    endpoint,
    '--name',
    'on-call',
    '--url',
    receiverUrl,
  ]);
  expect(created.code, created.stderr).toBe(0);
  const destinationId = /destination (dst_\w+)/.exec(created.stderr)![1]!;
  const rule = await runCli([
    'alerts',
    'rules',
    'create',
    '--endpoint',
    endpoint,
    '--json',
    '--name',
    'checkout success',
    '--metric',
    'e2e_success',
    '--comparison',
    'lt',
    '--threshold',
    '0.8',
    '--window',
    '10m',
    '--interval',
    '1s',
    '--min-samples',
    '5',
    '--repeat',
    '0',
    '--agent',
    'checkout',
    ...ruleArgs,
    '--destination',
    destinationId,
  ]);
  expect(rule.code, rule.stderr).toBe(0);
  return { secret: created.stdout.trim(), destinationId, ruleJson: rule.stdout };
}

/** The degrading agent the rule watches: 10 `checkout` runs of service `shop` from `startMs`, the first 6 failed (success 0.4). */
export async function sendFlakyCheckoutRuns(url: string, startMs = Date.now() - 120_000): Promise<void> {
  await sendAgentRuns(url, {
    service: 'shop',
    agent: 'checkout',
    runs: 10,
    startMs,
    fails: (i) => i < 6,
    durationMs: () => 100,
  });
}
