import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../Store.js';
import type { SpanRecord } from '../spans/SpanRecord.js';
import { makeSpan } from '../testing/makeSpan.js';
import { EMPTY_PRICE_TABLE, type AnalyticsFilter } from './AnalyticsFilter.js';

const NOW = BigInt(Date.now()) * 1_000_000n;
const T0 = NOW - 3_600_000_000_000n;
const MS = 1_000_000n;
const MODEL_CALLS = 40;
const GENERATE = 'ai.generateText.doGenerate';

/** A 16-hex span id whose order against the others the test chooses. */
const id = (n: number): string => n.toString(16).padStart(16, '0');

/**
 * An AI SDK tool loop without attempt numbers: `ai.generateText` with
 * `MODEL_CALLS` doGenerate children, a `get_weather` tool call between each
 * pair. Times are whole milliseconds (as many exporters send them): each tool
 * call is instant and starts in the very millisecond the next model call
 * starts. `idOf` picks the span ids, so the tie between a tool call and the
 * next model call falls either way under an order by (start, span id).
 */
function toolLoop(runId: string, startNs: bigint, idOf: (kind: 'llm' | 'tool', i: number) => number): SpanRecord[] {
  const traceId = runId.padEnd(32, '0').slice(0, 32);
  const common = { projectId: 'p1', traceId, runId, serviceName: 'ai-app' };
  const root = makeSpan({
    ...common,
    spanId: id(1),
    name: 'ai.generateText',
    stepKind: 'run',
    stepName: 'ai.generateText',
    isRunRoot: true,
    statusCode: 1,
    startTimeUnixNano: startNs,
    endTimeUnixNano: startNs + BigInt(MODEL_CALLS * 2 + 2) * MS,
  });
  const spans = [root];
  let t = startNs;
  for (let i = 0; i < MODEL_CALLS; i++) {
    spans.push(
      makeSpan({
        ...common,
        spanId: id(idOf('llm', i)),
        parentSpanId: root.spanId,
        name: GENERATE,
        stepKind: 'llm',
        stepName: GENERATE,
        attempt: 0,
        statusCode: 0,
        startTimeUnixNano: t,
        endTimeUnixNano: t + 2n * MS,
      }),
    );
    t += 2n * MS;
    if (i === MODEL_CALLS - 1) break;
    spans.push(
      makeSpan({
        ...common,
        spanId: id(idOf('tool', i)),
        parentSpanId: root.spanId,
        name: 'ai.toolCall',
        stepKind: 'tool',
        stepName: 'get_weather',
        toolName: 'get_weather',
        attempt: 0,
        statusCode: 0,
        startTimeUnixNano: t,
        endTimeUnixNano: t,
      }),
    );
  }
  return spans;
}

/** Model calls without attempt numbers, one after another, `okays[i]` telling whether call i succeeded. */
function modelCalls(runId: string, startNs: bigint, okays: boolean[]): SpanRecord[] {
  const traceId = runId.padEnd(32, '0').slice(0, 32);
  const common = { projectId: 'p1', traceId, runId, serviceName: 'ai-app' };
  const root = makeSpan({
    ...common,
    spanId: id(1),
    name: 'agent',
    stepKind: 'run',
    stepName: 'agent',
    isRunRoot: true,
    startTimeUnixNano: startNs,
    endTimeUnixNano: startNs + BigInt(okays.length + 1) * MS,
  });
  return [
    root,
    ...okays.map((ok, i) =>
      makeSpan({
        ...common,
        spanId: id(100 + i),
        parentSpanId: root.spanId,
        name: 'chat',
        stepKind: 'llm',
        stepName: 'chat',
        attempt: 0,
        statusCode: ok ? 0 : 2,
        startTimeUnixNano: startNs + BigInt(i) * MS,
        endTimeUnixNano: startNs + BigInt(i + 1) * MS,
      }),
    ),
  ];
}

describe('attempt groups of spans without attempt numbers', () => {
  let dir: string;
  let store: Store;
  const filter = (runIds: string[]): AnalyticsFilter => ({
    projectId: 'p1',
    fromUnixNano: T0 - 1n,
    toUnixNano: NOW,
    runIds,
  });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'telltale-attempts-'));
    store = await Store.open({ kind: 'embedded', dataDir: dir });
    await store.insertSpans([
      // model calls sort before the tool call they tie with under (start, span id): consecutive doGenerates
      ...toolLoop('loop0a', T0, (kind, i) => (kind === 'llm' ? 0x100 + i : 0x900 + i)),
      // the other way round
      ...toolLoop('loop0b', T0 + 1_000n * MS, (kind, i) => (kind === 'llm' ? 0x900 + i : 0x100 + i)),
      // interleaved: odd model calls win their tie, even ones lose it
      ...toolLoop('loop0c', T0 + 2_000n * MS, (kind, i) => (kind === 'llm' ? (i % 2 ? 0x100 : 0x900) + i : 0x500 + i)),
      // a success, then a failure that is never retried: two groups, the second failed
      ...modelCalls('okfail', T0 + 3_000n * MS, [true, false]),
      // a failure retried to success: one recovered group
      ...modelCalls('failok', T0 + 4_000n * MS, [false, true]),
      // fail, fail, ok, ok, fail: {fail, fail, ok} recovered, {ok}, {fail}
      ...modelCalls('mixed', T0 + 5_000n * MS, [false, false, true, true, false]),
    ]);
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('gives one attempt group per model call of a tool loop, whichever way start-time ties fall', async () => {
    for (const runId of ['loop0a', 'loop0b', 'loop0c']) {
      const stats = await store.metrics.stepGroupStats(filter([runId]), EMPTY_PRICE_TABLE);
      const byName = Object.fromEntries(stats.map((s) => [s.stepName, s]));
      // under the old rule (consecutive same-name siblings group) loop0a and loop0c merge model calls
      expect(byName[GENERATE], runId).toMatchObject({
        groups: MODEL_CALLS,
        attempts: MODEL_CALLS,
        firstOk: MODEL_CALLS,
      });
      expect(byName.get_weather, runId).toMatchObject({ groups: MODEL_CALLS - 1, attempts: MODEL_CALLS - 1 });
    }
    const { runs } = await store.runs.listRuns({ projectId: 'p1' }, { limit: 50, offset: 0 });
    const groups = Object.fromEntries(runs.map((r) => [r.runId, r.attemptGroups]));
    expect([groups.loop0a, groups.loop0b, groups.loop0c]).toEqual([79, 79, 79]);
  });

  it('records a failed call after a successful one as a failed group, and a failure then success as a recovery', async () => {
    const stat = async (runId: string): Promise<unknown> =>
      (await store.metrics.stepGroupStats(filter([runId]), EMPTY_PRICE_TABLE)).find((s) => s.stepName === 'chat');
    expect(await stat('okfail')).toMatchObject({
      groups: 2,
      firstOk: 1,
      anyOk: 1,
      failedFirst: 1,
      recovered: 0,
      attempts: 2,
    });
    expect(await stat('failok')).toMatchObject({ groups: 1, firstOk: 0, anyOk: 1, failedFirst: 1, recovered: 1 });
    expect(await stat('mixed')).toMatchObject({
      groups: 3,
      firstOk: 1,
      anyOk: 2,
      failedFirst: 2,
      recovered: 1,
      attempts: 5,
    });
  });
});
