import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../Store.js';
import { buildRun } from '../testing/runBuilder.js';
import { EMPTY_PRICE_TABLE, type AnalyticsFilter } from './AnalyticsFilter.js';

const NOW = BigInt(Date.now()) * 1_000_000n;
const T0 = NOW - 3_600_000_000_000n;

describe('reliability queries', () => {
  let dir: string;
  let store: Store;
  const filter: AnalyticsFilter = { projectId: 'p1', fromUnixNano: T0 - 1n, toUnixNano: NOW };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'telltale-rel-'));
    store = await Store.open({ kind: 'embedded', dataDir: dir });
    await store.insertSpans([
      // success after a retry: search fails once then recovers
      ...buildRun({
        runId: 'r1',
        startNs: T0,
        steps: [
          { kind: 'plan', name: 'plan' },
          { kind: 'tool', name: 'search', ok: false, attempt: 1 },
          { kind: 'tool', name: 'search', ok: true, attempt: 2 },
        ],
      }),
      // failure: search never succeeds (step-explained)
      ...buildRun({
        runId: 'r2',
        startNs: T0 + 10_000_000n,
        rootOk: false,
        steps: [
          { kind: 'plan', name: 'plan' },
          { kind: 'tool', name: 'search', ok: false, attempt: 1 },
          { kind: 'tool', name: 'search', ok: false, attempt: 2 },
        ],
      }),
      // seam failure: every group ok, root fails
      ...buildRun({
        runId: 'r3',
        startNs: T0 + 20_000_000n,
        rootOk: false,
        steps: [
          { kind: 'plan', name: 'plan' },
          { kind: 'tool', name: 'search', attempt: 1 },
        ],
      }),
      // the same tool called twice with attempt 1 each: two groups; spans without attempts group while consecutive
      ...buildRun({
        runId: 'r4',
        startNs: T0 + 30_000_000n,
        steps: [
          { kind: 'tool', name: 'search', attempt: 1 },
          { kind: 'tool', name: 'search', attempt: 1 },
          { kind: 'validate', name: 'check', attempt: 0, ok: false },
          { kind: 'validate', name: 'check', attempt: 0, ok: true },
          { kind: 'plan', name: 'plan', attempt: 0 },
          { kind: 'validate', name: 'check', attempt: 0, ok: true },
        ],
      }),
      // incomplete: no root
      ...buildRun({ runId: 'r5', startNs: T0 + 40_000_000n, withRoot: false, steps: [{ kind: 'plan', name: 'plan' }] }),
    ]);
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('counts attempt groups per step name', async () => {
    const stats = await store.metrics.stepGroupStats(filter, EMPTY_PRICE_TABLE);
    const byName = Object.fromEntries(stats.map((s) => [s.stepName, s]));
    expect(byName.search).toMatchObject({
      groups: 5,
      firstOk: 3,
      anyOk: 4,
      failedFirst: 2,
      recovered: 1,
      attempts: 7,
      okAttempts: 4,
      groupsInSuccessfulRuns: 3,
    });
    expect(byName.search!.retryExtraNs).toBe(2_000_000);
    expect(byName.check).toMatchObject({ groups: 2, firstOk: 1, anyOk: 2, failedFirst: 1, recovered: 1, attempts: 3 });
    expect(byName.plan).toMatchObject({ groups: 4, anyOk: 4 });
  });

  it('counts outcomes and the gap decomposition per agent', async () => {
    const stats = await store.metrics.agentRunStats(filter, EMPTY_PRICE_TABLE);
    expect(stats).toEqual([
      // a run with no root has no known agent yet
      {
        agent: '',
        service: 'svc',
        success: 0,
        failure: 0,
        incomplete: 1,
        stepExplainedFailures: 0,
        seamFailures: 0,
        fallbackRecoveries: 0,
      },
      {
        agent: 'agent',
        service: 'svc',
        success: 2,
        failure: 2,
        incomplete: 0,
        stepExplainedFailures: 1,
        seamFailures: 1,
        fallbackRecoveries: 0,
      },
    ]);
  });

  it('gives observed success by number of attempt groups', async () => {
    const curve = await store.metrics.compoundingCurve(filter, EMPTY_PRICE_TABLE);
    expect(curve).toEqual([
      { groups: 2, runs: 3, success: 1 },
      { groups: 5, runs: 1, success: 1 },
    ]);
  });

  it('applies the span filters to steps', async () => {
    const stats = await store.metrics.stepGroupStats({ ...filter, stepName: 'check' }, EMPTY_PRICE_TABLE);
    expect(stats.map((s) => s.stepName)).toEqual(['check']);
  });
});
