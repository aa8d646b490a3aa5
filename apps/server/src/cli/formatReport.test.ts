import {
  costReport,
  DEFAULT_LOOP_THRESHOLDS,
  failureBreakdown,
  latencyPercentiles,
  reliabilityReport,
  type LoopsReport,
} from '@telltale/analytics';
import type { StoreRows } from '@telltale/store';
import { describe, expect, it } from 'vitest';
import { formatReport } from './formatReport.js';

const step = (
  stepName: string,
  stepKind: string,
  anyOk: number,
  firstOk: number,
  recovered: number,
): StoreRows.StepGroupStats => ({
  agent: 'support',
  service: 'svc',
  stepName,
  stepKind,
  groups: 100,
  groupsInSuccessfulRuns: 80,
  firstOk,
  anyOk,
  failedFirst: 100 - firstOk,
  recovered,
  attempts: 100 + (100 - firstOk),
  okAttempts: anyOk,
  retryExtraNs: 0,
  retryExtraCostUsd: 0,
});

// 100 runs: 80 succeed; `search` eventually succeeds in 80 of 100 groups (70 at once, 10 on retry); `plan` always.
const reliability = reliabilityReport(
  [step('search', 'tool', 80, 70, 10), step('plan', 'plan', 100, 100, 0)],
  [
    {
      agent: 'support',
      service: 'svc',
      success: 80,
      failure: 20,
      incomplete: 3,
      stepExplainedFailures: 20,
      seamFailures: 0,
      fallbackRecoveries: 0,
    },
  ],
);

const costStats: StoreRows.RunCostStats = {
  runs: 103,
  successRuns: 80,
  failureRuns: 20,
  incompleteRuns: 3,
  totalUsd: 2,
  successUsd: 1.6,
  failureUsd: 0.4,
  incompleteUsd: 0,
  meanUsd: 0.02,
  p50Usd: 0.02,
  p95Usd: 0.03,
  p99Usd: 0.05,
  maxUsd: 0.06,
  inputTokens: 0,
  outputTokens: 0,
  cachedInputTokens: 0,
  unpricedSpans: 0,
};

const zero = { runsFlagged: 0, detections: 0, wastedNs: 0, wastedCostUsd: 0 };
const loops: LoopsReport = {
  detections: [],
  total: 7,
  limit: 1,
  offset: 0,
  runs: 103,
  byKind: {
    repeated_action: { runsFlagged: 4, detections: 5, wastedNs: 3e9, wastedCostUsd: 0.01 },
    no_progress: { ...zero, runsFlagged: 2, detections: 2 },
    ping_pong: zero,
    runaway: zero,
  },
  overall: { runsFlagged: 5, detections: 7, wastedNs: 3.5e9, wastedCostUsd: 0.012 },
  thresholds: { ...DEFAULT_LOOP_THRESHOLDS },
};

describe('formatReport', () => {
  const text = formatReport({
    endpoint: 'http://127.0.0.1:4318',
    window: 'last 2h',
    reliability,
    latency: {
      runs: latencyPercentiles(
        [
          {
            key: '',
            service: '',
            count: 100,
            meanNs: 2e9,
            maxNs: 9e9,
            digest: false,
            quantilesNs: [1.5e9, 3e9, 4e9, 7.5e9, 9e9],
          },
        ],
        'run',
      ),
    },
    cost: costReport(costStats, []),
    loops,
    failures: failureBreakdown({
      loop: 5,
      partial_execution: 0,
      tool_failure: 12,
      validation_exhausted: 0,
      llm_error: 3,
      timeout: 0,
      unknown: 0,
    }),
  });
  const lines = text.split('\n');

  it('heads the report with the endpoint and window', () => {
    expect(lines[0]).toBe('Telltale report · http://127.0.0.1:4318 · last 2h');
    expect(lines).toContain('Runs: 103  (80 success, 20 failure, 3 incomplete)');
  });

  it('shows observed and predicted success with their intervals', () => {
    const observed = lines.find((l) => l.startsWith('observed'))!;
    expect(observed).toMatch(/^observed\s+80\.0%\s+\d+\.\d% – \d+\.\d%\s+100$/);
    // predicted = p(search) × p(plan) = 0.8 with k = 1 for both steps.
    expect(lines.find((l) => l.startsWith('predicted'))).toMatch(/\s80\.0%\s/);
  });

  it('ranks the weakest step first with a/f/p/r', () => {
    const header = lines.findIndex((l) => l.startsWith('step '));
    expect(lines[header + 2]).toMatch(/^search\s+tool\s+100\s+61\.5%\s+70\.0%\s+80\.0%\s+33\.3%\s+\+\d+\.\d pp$/);
    expect(lines[header + 3]).toMatch(/^plan\s+plan\s+100\s+100\.0%/);
  });

  it('adds run latency and cost lines', () => {
    expect(lines).toContain('Run latency: p50 1.5 s · p95 4 s · p99 7.5 s · max 9 s  (100 runs)');
    expect(lines).toContain('Cost: $2.00 total · per run p50 $0.02 · p95 $0.03 · p99 $0.05 · max $0.06');
    expect(text).toContain('per success $0.025 (failures included) · wasted $0.4 (20.0%) on failed runs');
  });
});

describe('formatReport loop and failure sections', () => {
  const lines = formatReport({
    endpoint: 'http://x',
    window: 'last 1h',
    reliability,
    loops,
    failures: failureBreakdown({
      loop: 5,
      partial_execution: 0,
      tool_failure: 12,
      validation_exhausted: 0,
      llm_error: 3,
      timeout: 0,
      unknown: 0,
    }),
  }).split('\n');

  it('gives the loop rate with runs per kind and the waste', () => {
    expect(lines).toContain(
      'Loops: 5 of 103 runs (4.9%) · repeated action 4 · no progress 2 · ping-pong 0 · runaway 0',
    );
    expect(lines).toContain('       wasted 3.5 s and $0.012 on repeats');
  });

  it('lists the causes that occurred in priority order with shares', () => {
    const at = lines.indexOf('Failures by primary cause (20 failed runs)');
    expect(at).toBeGreaterThan(0);
    expect(lines.slice(at + 3, at + 6).map((l) => l.trim().split(/\s+/))).toEqual([
      ['loop', '5', '25.0%'],
      ['tool_failure', '12', '60.0%'],
      ['llm_error', '3', '15.0%'],
    ]);
  });
});
