import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OpenInferenceAttr, OtelAttr, SESSION_ID_SOURCES, TraceloopAttr, VercelAiAttr } from '@telltale/semconv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../Store.js';
import { m0007Sessions } from '../migrations/0007_sessions.js';
import { buildRun } from '../testing/runBuilder.js';
import type { SpanRecord } from '../spans/SpanRecord.js';
import { clientOf } from '../internal/storeRunners.js';

const T0 = BigInt(Date.now() - 3_600_000) * 1_000_000n;
const MS = 1_000_000n;

/** A run whose second step (not the root) names its session with `key`, as instrumentations do on LLM spans. */
function sessionRun(
  runId: string,
  startNs: bigint,
  key: string | undefined,
  session: string,
  opts: { ok?: boolean; reasoning?: number } = {},
): SpanRecord[] {
  const attributes = key === undefined ? [] : [{ key, value: session }];
  const usage = [
    ...(opts.reasoning === undefined
      ? []
      : [{ key: OtelAttr.genAiReasoningOutputTokens, value: BigInt(opts.reasoning) }]),
  ];
  return buildRun({
    runId,
    projectId: 'ps',
    startNs,
    rootOk: opts.ok ?? true,
    steps: [
      { kind: 'plan', name: 'plan' },
      {
        kind: 'llm',
        name: 'chat',
        extra: { model: 'm', inputTokens: 100, outputTokens: 10, costUsd: 0.5, attributes: [...attributes, ...usage] },
      },
    ],
  });
}

describe('sessions (migration 0007)', () => {
  let dir: string;
  let store: Store;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'telltale-sessions-'));
    store = await Store.open({ kind: 'embedded', dataDir: dir });
    await store.insertSpans([
      ...sessionRun('r1', T0, OtelAttr.genAiConversationId, 'conv-a'),
      ...sessionRun('r2', T0 + 10n * MS, OpenInferenceAttr.sessionId, 'conv-a', { ok: false }),
      ...sessionRun('r3', T0 + 20n * MS, VercelAiAttr.metadataSessionId, 'conv-b', { reasoning: 7 }),
      ...sessionRun('r4', T0 + 30n * MS, TraceloopAttr.sessionId, 'conv-b'),
      ...sessionRun('r5', T0 + 40n * MS, undefined, ''),
    ]);
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('spells out SESSION_ID_SOURCES in order', () => {
    const sql = m0007Sessions.statements[0]!;
    const at = SESSION_ID_SOURCES.map((name) => sql.indexOf(`attributes['${name}']`));
    expect(at.every((i) => i > 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
  });

  it("derives each span's session id and reasoning tokens from whichever convention named them", async () => {
    const result = await clientOf(store).query({
      query:
        "SELECT run_id, session_id, reasoning_tokens FROM spans WHERE project_id = 'ps' AND step_kind = 'llm' ORDER BY run_id",
      format: 'JSONEachRow',
    });
    const rows = (await result.json<{ run_id: string; session_id: string; reasoning_tokens: string | number }>()).map(
      (r) => [r.run_id, r.session_id, Number(r.reasoning_tokens)],
    );
    expect(rows).toEqual([
      ['r1', 'conv-a', 0],
      ['r2', 'conv-a', 0],
      ['r3', 'conv-b', 7],
      ['r4', 'conv-b', 0],
      ['r5', '', 0],
    ]);
  });

  for (const recompute of [false, true]) {
    it(`lists runs with their session and filters by it (${recompute ? 'from the spans' : 'from the run facts'})`, async () => {
      const all = await store.runs.listRuns({ projectId: 'ps', recompute }, { limit: 10, offset: 0 });
      expect(all.runs.map((r) => [r.runId, r.sessionId])).toEqual([
        ['r5', ''],
        ['r4', 'conv-b'],
        ['r3', 'conv-b'],
        ['r2', 'conv-a'],
        ['r1', 'conv-a'],
      ]);
      const a = await store.runs.listRuns({ projectId: 'ps', session: 'conv-a', recompute }, { limit: 10, offset: 0 });
      expect([a.total, a.runs.map((r) => r.runId)]).toEqual([2, ['r2', 'r1']]);
      const none = await store.runs.listRuns({ projectId: 'ps', session: 'nope', recompute }, { limit: 10, offset: 0 });
      expect(none.total).toBe(0);
    });
  }

  it('lists sessions, most recently active first, with outcomes, cost and tokens summed over their runs', async () => {
    const { sessions, total } = await store.runs.listSessions({ projectId: 'ps' }, { limit: 10, offset: 0 });
    expect(total).toBe(2);
    expect(
      sessions.map((s) => ({
        id: s.sessionId,
        runs: s.runs,
        ok: s.successRuns,
        failed: s.failureRuns,
        cost: s.costUsd,
        input: s.inputTokens,
        agents: s.agents,
      })),
    ).toEqual([
      { id: 'conv-b', runs: 2, ok: 2, failed: 0, cost: 1, input: 200, agents: ['agent'] },
      { id: 'conv-a', runs: 2, ok: 1, failed: 1, cost: 1, input: 200, agents: ['agent'] },
    ]);
    const page = await store.runs.listSessions({ projectId: 'ps' }, { limit: 1, offset: 1 });
    expect([page.total, page.sessions.map((s) => s.sessionId)]).toEqual([2, ['conv-a']]);
  });
});
