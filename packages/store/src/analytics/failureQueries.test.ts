import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../Store.js';
import type { SpanRecord } from '../spans/SpanRecord.js';
import { loopRun, type LoopRunStep } from '../testing/loopRun.js';
import { shuffled } from '../testing/spanAt.js';
import { EMPTY_PRICE_TABLE, type AnalyticsFilter } from './AnalyticsFilter.js';
import type { FailureCause } from '@telltale/semconv';
import type { LoopThresholds } from './loopTypes.js';

const HOUR_NS = 3_600_000_000_000n;
const T0 = ((BigInt(Date.now()) * 1_000_000n) / HOUR_NS) * HOUR_NS - 2n * HOUR_NS;
const T: LoopThresholds = { repeat: 3, pingPongCycles: 3, runawayMultiplier: 3, runawayHardCap: 10 };

const step = (kind: string, name: string, extra: Partial<LoopRunStep> = {}): LoopRunStep => ({ kind, name, ...extra });
const fail = (kind: string, name: string, extra: Partial<LoopRunStep> = {}): LoopRunStep =>
  step(kind, name, { ok: false, ...extra });

/** Failed runs of agent f (median 3 steps → runaway limit 10), one cause each by construction. */
const FAILED: Array<{ runId: string; cause: FailureCause; rootErrorType?: string; steps: LoopRunStep[] }> = [
  // a loop wins over the side effect before it
  {
    runId: 'loop-effect',
    cause: 'loop',
    steps: [
      step('tool', 'pay', { args: 'p', sideEffect: true }),
      ...[0, 1, 2].map(() => step('tool', 'search', { args: 'h' })),
    ],
  },
  // a side effect succeeded, then a tool failed for good
  {
    runId: 'partial',
    cause: 'partial_execution',
    steps: [
      step('act', 'charge', { sideEffect: true }),
      fail('tool', 'ship', { attempt: 1 }),
      fail('tool', 'ship', { attempt: 2 }),
    ],
  },
  // the side effect came after the failure (a notification): the tool failure is the cause
  {
    runId: 'effect-after',
    cause: 'tool_failure',
    steps: [
      fail('tool', 'charge', { attempt: 1 }),
      fail('tool', 'charge', { attempt: 2 }),
      step('act', 'email', { sideEffect: true }),
    ],
  },
  // nested: transfer (fails) spans a successful debit and a failed credit
  {
    runId: 'nested',
    cause: 'partial_execution',
    steps: [
      fail('act', 'transfer', { startMs: 1, durationMs: 30 }),
      step('tool', 'debit', { startMs: 2, sideEffect: true }),
      fail('tool', 'credit', { startMs: 5 }),
    ],
  },
  {
    runId: 'tool',
    cause: 'tool_failure',
    steps: [step('llm', 'think'), fail('tool', 'search', { attempt: 1 }), fail('tool', 'search', { attempt: 2 })],
  },
  {
    runId: 'validation',
    cause: 'validation_exhausted',
    steps: [fail('validate', 'check', { output: 'a' }), step('act', 'fix'), fail('validate', 'check', { output: 'b' })],
  },
  // the last validation recovered; an llm group never succeeded
  {
    runId: 'validation-recovered',
    cause: 'llm_error',
    steps: [fail('validate', 'check', { attempt: 1 }), step('validate', 'check', { attempt: 2 }), fail('llm', 'write')],
  },
  {
    runId: 'llm',
    cause: 'llm_error',
    steps: [
      fail('llm', 'write', { attempt: 1 }),
      fail('llm', 'write', { attempt: 2 }),
      fail('llm', 'write', { attempt: 3 }),
    ],
  },
  { runId: 'timeout-root', cause: 'timeout', rootErrorType: 'AgentTimeout', steps: [step('act', 'work')] },
  {
    runId: 'timeout-step',
    cause: 'timeout',
    rootErrorType: 'Error',
    steps: [fail('act', 'wait', { errorType: 'DeadlineExceeded' })],
  },
  // a timeout that a retry recovered is not the cause
  {
    runId: 'timeout-recovered',
    cause: 'unknown',
    rootErrorType: 'Crash',
    steps: [fail('act', 'work', { attempt: 1, errorType: 'TimeoutError' }), step('act', 'work', { attempt: 2 })],
  },
  { runId: 'unknown', cause: 'unknown', rootErrorType: 'Crash', steps: [step('act', 'work')] },
  // tool failure outranks the failed last validation
  {
    runId: 'tool-and-validation',
    cause: 'tool_failure',
    steps: [step('plan', 'plan'), fail('tool', 'search'), fail('validate', 'check')],
  },
  // runaway: 12 steps > 10
  { runId: 'runaway', cause: 'loop', steps: Array.from({ length: 12 }, (_, i) => step('act', `a${i}`)) },
];

function spans(projectId: string): SpanRecord[] {
  const out = FAILED.flatMap((r, i) =>
    loopRun({
      runId: r.runId,
      agent: 'f',
      ok: false,
      rootErrorType: r.rootErrorType ?? '',
      projectId,
      startNs: T0 + BigInt(i) * 1_000_000_000n,
      steps: r.steps,
    }),
  );
  // a successful loop and an incomplete failing run get no cause
  out.push(
    ...loopRun({
      runId: 'ok-loop',
      agent: 'f',
      projectId,
      startNs: T0 + 20_000_000_000n,
      steps: [0, 1, 2].map(() => step('tool', 'search', { args: 'h' })),
    }),
  );
  out.push(
    ...loopRun({
      runId: 'open',
      incomplete: true,
      projectId,
      startNs: T0 + 21_000_000_000n,
      steps: [fail('tool', 'search')],
    }),
  );
  return out;
}

describe('failure causes', () => {
  let dir: string;
  let store: Store;
  const filter: AnalyticsFilter = { projectId: 'p1', fromUnixNano: T0 - 1n, toUnixNano: T0 + HOUR_NS };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'telltale-causes-'));
    store = await Store.open({ kind: 'embedded', dataDir: dir });
    await store.insertSpans(spans('p1'));
    const mixed = shuffled(spans('p2'), 11);
    const half = Math.ceil(mixed.length / 2);
    await store.insertSpans(mixed.slice(half));
    await store.insertSpans(mixed.slice(0, half));
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('gives every failed run exactly one cause, in priority order', async () => {
    const causes = await store.metrics.runCauses(filter, EMPTY_PRICE_TABLE, T);
    const expected = FAILED.map((r) => ({ runId: r.runId, cause: r.cause })).sort((a, b) =>
      a.runId < b.runId ? -1 : 1,
    );
    expect(causes).toEqual(expected);
  });

  it('counts runs per cause', async () => {
    const counts = await store.metrics.failureCauses(filter, EMPTY_PRICE_TABLE, T);
    expect(counts).toEqual({
      loop: 2,
      partial_execution: 2,
      tool_failure: 3,
      validation_exhausted: 1,
      llm_error: 2,
      timeout: 2,
      unknown: 2,
    });
  });

  it('counts causes per interval of run start', async () => {
    const series = await store.metrics.failureSeries(filter, EMPTY_PRICE_TABLE, T, 5);
    // runs start 1 s apart: [loop-effect … nested, tool], [validation … timeout-step], [timeout-recovered … runaway]
    expect(series.map((b) => b.bucketStartMs - Number(T0 / 1_000_000n))).toEqual([0, 5000, 10_000]);
    expect(series.map((b) => b.counts)).toEqual([
      { loop: 1, partial_execution: 2, tool_failure: 2, validation_exhausted: 0, llm_error: 0, timeout: 0, unknown: 0 },
      { loop: 0, partial_execution: 0, tool_failure: 0, validation_exhausted: 1, llm_error: 2, timeout: 2, unknown: 0 },
      { loop: 1, partial_execution: 0, tool_failure: 1, validation_exhausted: 0, llm_error: 0, timeout: 0, unknown: 2 },
    ]);
    await expect(store.metrics.failureSeries(filter, EMPTY_PRICE_TABLE, T, 1.5)).rejects.toThrow(
      expect.objectContaining({ code: 'BAD_REQUEST' }),
    );
  });

  it("uses the window's medians for a page of runs", async () => {
    const page = { ...filter, runIds: ['runaway', 'tool'] };
    // alone, the runaway run is its agent's median (12 steps → limit 36): not a loop
    expect(await store.metrics.runCauses(page, EMPTY_PRICE_TABLE, T)).toEqual([
      { runId: 'runaway', cause: 'unknown' },
      { runId: 'tool', cause: 'tool_failure' },
    ]);
    const medians = await store.metrics.agentStepMedians(filter, EMPTY_PRICE_TABLE);
    expect(medians).toEqual([{ service: 'svc', agent: 'f', medianSteps: 3 }]);
    expect(await store.metrics.runCauses(page, EMPTY_PRICE_TABLE, T, medians)).toEqual([
      { runId: 'runaway', cause: 'loop' },
      { runId: 'tool', cause: 'tool_failure' },
    ]);
  });

  it('gives the same causes whatever order the spans arrived in', async () => {
    const a = await store.metrics.runCauses(filter, EMPTY_PRICE_TABLE, T);
    const b = await store.metrics.runCauses({ ...filter, projectId: 'p2' }, EMPTY_PRICE_TABLE, T);
    expect(b).toEqual(a);
    expect(a).toHaveLength(FAILED.length);
  });
});
