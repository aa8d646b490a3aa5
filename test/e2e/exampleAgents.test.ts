import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { BUNDLED_PRICES } from '@telltale/analytics';
import { chatUsage, loadScenarios } from '@telltale/model-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pollUntil } from './harness/exportRunWithKey.js';
import type { ApiRun, ApiSpan } from './harness/interopApi.js';
import { TelltaleProcess } from './harness/TelltaleProcess.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);

/** What one ticket's run must look like: the recorded turns it consumes, its steps in order, its outcome. */
interface Expected {
  scenario: string;
  turns: number[];
  steps: string[];
  outcome: 'success' | 'failure';
}

const price = BUNDLED_PRICES.find((p) => p.model === 'gpt-4o-mini')!;
const scenarios = new Map(loadScenarios().map((s) => [s.name, s]));

/** Tokens and cost of the recorded answers a run consumed (a 429 has no usage). */
function recorded(e: Expected) {
  const sum = { input: 0, cached: 0, output: 0, cost: 0 };
  for (const t of e.turns) {
    const rec = scenarios.get(`support/${e.scenario}`)!.turns[t]!;
    if (rec.status !== 200) continue;
    const u = chatUsage(rec);
    sum.input += u.prompt_tokens;
    sum.cached += u.cached_tokens;
    sum.output += u.completion_tokens;
    sum.cost +=
      ((u.prompt_tokens - u.cached_tokens) * price.inputPerMTok +
        u.cached_tokens * price.cachedInputPerMTok +
        u.completion_tokens * price.outputPerMTok) /
      1e6;
  }
  return sum;
}

// step = kind:name, `!` marks a failed step. Tickets run in this order.
const OPENAI: Expected[] = [
  {
    scenario: 'where-is-order',
    turns: [0, 1],
    steps: ['llm', 'tool:lookup_order', 'llm', 'validate', 'act'],
    outcome: 'success',
  },
  {
    scenario: 'refund-damaged',
    turns: [0, 1, 2],
    steps: ['llm', 'tool:lookup_order', 'llm', 'tool:refund_order', 'llm', 'validate', 'act'],
    outcome: 'success',
  },
  {
    scenario: 'refund-claimed-after-failure',
    turns: [0, 1, 2],
    steps: ['llm', 'tool:lookup_order', 'llm', 'tool:refund_order!', 'llm', 'validate!'],
    outcome: 'failure',
  },
  {
    scenario: 'lookup-loop',
    turns: [0, 1, 1],
    steps: ['llm', 'tool:lookup_order', 'llm', 'tool:lookup_order', 'llm', 'tool:lookup_order!'],
    outcome: 'failure',
  },
  { scenario: 'unknown-tool', turns: [0], steps: ['llm', 'tool:escalate_to_human!'], outcome: 'failure' },
  { scenario: 'rate-limited', turns: [0, 1], steps: ['llm', 'tool:lookup_order', 'llm!'], outcome: 'failure' },
];

const AI_SDK: Expected[] = [
  { scenario: 'where-is-order', turns: [0, 1], steps: ['llm', 'tool:lookup_order', 'llm'], outcome: 'success' },
  {
    scenario: 'refund-damaged',
    turns: [0, 1, 2],
    steps: ['llm', 'tool:lookup_order', 'llm', 'tool:refund_order', 'llm'],
    outcome: 'success',
  },
  {
    scenario: 'refund-claimed-after-failure',
    turns: [0, 1, 2],
    steps: ['llm', 'tool:lookup_order', 'llm', 'tool:refund_order!', 'llm'],
    outcome: 'failure',
  },
  {
    scenario: 'lookup-loop',
    turns: [0, 1, 1, 1],
    steps: [
      'llm',
      'tool:lookup_order',
      'llm',
      'tool:lookup_order',
      'llm',
      'tool:lookup_order',
      'llm',
      'tool:lookup_order',
    ],
    outcome: 'failure',
  },
  // The AI SDK hands an unknown tool back to the model as an error, without a tool span.
  { scenario: 'unknown-tool', turns: [0, 1], steps: ['llm', 'llm'], outcome: 'failure' },
  { scenario: 'rate-limited', turns: [0, 1], steps: ['llm', 'tool:lookup_order', 'llm!'], outcome: 'failure' },
];

type TimedSpan = ApiSpan & { startTimeUnixNano: string };
/** Within a run's causal order a tool follows the model call and act follows validate. */
const RANK: Record<string, number> = { llm: 0, tool: 1, validate: 2, act: 3 };
/**
 * Steps in the order they ran: by start, then kind. A span's start is
 * `Date.now()` (whole milliseconds) and its end that plus a finer duration,
 * so a fast step and the next can share a start, and ends do not order them.
 */
function inRunOrder(a: TimedSpan, b: TimedSpan): number {
  const d = BigInt(a.startTimeUnixNano) - BigInt(b.startTimeUnixNano);
  return d !== 0n ? (d < 0n ? -1 : 1) : (RANK[a.stepKind] ?? 9) - (RANK[b.stepKind] ?? 9);
}

describe('examples/ agents → local model server → real server → API', () => {
  let telltale: TelltaleProcess;
  beforeAll(async () => {
    telltale = await TelltaleProcess.start();
  });
  afterAll(() => telltale.dispose());

  const cases = [
    ['support-agent-openai', OPENAI],
    ['support-agent-ai-sdk', AI_SDK],
  ] as const;
  it.each(cases)('%s: every ticket is a run with the recorded steps, tokens and cost', async (service, expected) => {
    // The one-line start of the example's README, pointed at this server.
    const { stdout } = await run(process.execPath, [`examples/${service}/agent.mjs`], {
      cwd: ROOT,
      timeout: 60_000,
      env: { ...process.env, TELLTALE_ENDPOINT: telltale.url, OPENAI_BASE_URL: undefined },
    });
    expect(stdout).toContain('spans sent');

    const { value: runs } = await pollUntil(
      () =>
        telltale.getJson<{ runs: (ApiRun & { startTimeUnixNano: string })[] }>(
          `/api/v1/runs?limit=50&service=${service}`,
        ),
      (r) =>
        r.body.runs.length === expected.length && r.body.runs.reduce((n, x) => n + x.spans, 0) >= expected.length * 2,
      30_000,
    );
    const ordered = runs.body.runs.sort((a, b) => Number(BigInt(a.startTimeUnixNano) - BigInt(b.startTimeUnixNano)));
    for (const [i, e] of expected.entries()) {
      const r = ordered[i]!;
      const { value } = await pollUntil(
        () => telltale.getJson<{ spans: TimedSpan[] }>(`/api/v1/runs/${r.runId}`),
        (d) => d.body.spans.filter((s) => s.stepKind !== 'run' && s.stepKind !== '').length === e.steps.length,
        20_000,
      );
      const steps = value.body.spans
        .filter((s) => s.stepKind !== 'run' && s.stepKind !== '')
        .sort(inRunOrder)
        .map((s) => `${s.stepKind}${s.toolName ? `:${s.toolName}` : ''}${s.status.code === 'error' ? '!' : ''}`);
      const want = recorded(e);
      expect({ ticket: i, steps, outcome: r.outcome }).toEqual({ ticket: i, steps: e.steps, outcome: e.outcome });
      expect([r.inputTokens, r.cachedInputTokens, r.outputTokens]).toEqual([want.input, want.cached, want.output]);
      expect(r.unpricedSpans).toBe(0);
      expect(r.costUsd).toBeCloseTo(want.cost, 12);
    }
  });
});
