import { describe, expect, it } from 'vitest';
import { runSummary } from '../testing/fixtures';
import { prepareOutcomeChart } from './prepareOutcomeChart';
import { preparePagination } from './preparePagination';
import { prepareRunHeader } from './prepareRunHeader';
import { prepareRunsTable } from './prepareRunsTable';
import { prepareRunAnnotations } from './prepareRunAnnotations';
import { nanoseconds, usd } from '../units';

describe('prepareRunsTable', () => {
  it('formats each run for display', () => {
    const [row] = prepareRunsTable(
      [
        runSummary({
          runId: 'r/1',
          outcome: 'failure',
          durationNs: '1234000000',
          costUsd: 0.0042,
          inputTokens: 10_000,
          outputTokens: 2_345,
          errorType: 'ToolTimeout',
        }),
      ],
      'UTC',
    );
    expect(row).toEqual({
      runId: 'r/1',
      href: '/runs/r%2F1',
      outcome: 'failure',
      outcomeLabel: 'Failure',
      outcomeColor: '#dc2626',
      name: 'support-agent',
      service: 'support',
      startLabel: '2023-11-14 22:13:20',
      startIso: '2023-11-14T22:13:20.000Z',
      durationLabel: '1.23 s',
      stepsLabel: '4',
      costLabel: '$0.0042',
      tokensLabel: '12.3k',
      tokensTitle: '10,000 in / 2,345 out',
      error: { errorType: 'ToolTimeout', recovered: false, errorLabel: 'Failed with' },
      cause: '',
      causeLabel: '',
      loopKinds: [],
      loopLabel: '',
      sessionId: '',
      sessionLabel: '',
      sessionHref: '',
    });
  });

  it('links a run’s session to the runs list filtered to it, keeping the window and service', () => {
    const [row] = prepareRunsTable(
      [runSummary({ sessionId: 'conversation-0042-abcdef' })],
      'UTC',
      {},
      'range=7d&service=support&agent=triage&outcome=failure&page=3',
    );
    expect(row).toMatchObject({
      sessionId: 'conversation-0042-abcdef',
      sessionLabel: 'conversation…',
      sessionHref: '/runs?range=7d&service=support&session=conversation-0042-abcdef',
    });
  });

  it('adds the primary cause of failed runs and the loop kinds of any run', () => {
    const annotations = prepareRunAnnotations(
      {
        runs: [
          { runId: 'f', cause: 'tool_failure' },
          { runId: 's', cause: 'loop' },
        ],
      },
      {
        runs: [
          {
            runId: 's',
            kinds: ['repeated_action', 'ping_pong'],
            detections: 2,
            wastedNs: nanoseconds(5),
            wastedCostUsd: usd(0),
          },
        ],
      },
    );
    const rows = prepareRunsTable(
      [runSummary({ runId: 'f', outcome: 'failure' }), runSummary({ runId: 's', outcome: 'success' })],
      'UTC',
      annotations,
    );
    expect(rows.map((r) => [r.runId, r.cause, r.causeLabel, r.loopKinds, r.loopLabel])).toEqual([
      ['f', 'tool_failure', 'tool failure', [], ''],
      // a cause is only shown for failed runs
      ['s', '', '', ['repeated_action', 'ping_pong'], 'repeat, ping-pong'],
    ]);
  });

  it('falls back to the run id for unnamed runs', () => {
    expect(prepareRunsTable([runSummary({ name: '', runId: 'abc' })])[0]?.name).toBe('abc');
  });
});

describe('prepareOutcomeChart', () => {
  it('counts every outcome, zeros included, in a fixed order', () => {
    const bars = prepareOutcomeChart([
      runSummary({ outcome: 'failure' }),
      runSummary({ outcome: 'success' }),
      runSummary({ outcome: 'failure' }),
    ]);
    expect(bars.map((b) => [b.outcome, b.count])).toEqual([
      ['success', 1],
      ['failure', 2],
      ['incomplete', 0],
    ]);
  });
});

describe('preparePagination', () => {
  it('describes the page and its neighbours', () => {
    expect(preparePagination({ total: 1234, limit: 50, offset: 50, shown: 50 })).toEqual({
      page: 2,
      pageCount: 25,
      hasPrev: true,
      hasNext: true,
      rangeLabel: '51–100 of 1,234',
      prevLabel: '← Newer',
      nextLabel: 'Older →',
    });
    expect(preparePagination({ total: 120, limit: 50, offset: 100, shown: 20 })).toMatchObject({
      page: 3,
      pageCount: 3,
      hasNext: false,
      rangeLabel: '101–120 of 120',
    });
  });

  it('handles empty results and pages past the end', () => {
    expect(preparePagination({ total: 0, limit: 50, offset: 0, shown: 0 })).toMatchObject({
      pageCount: 1,
      hasPrev: false,
      hasNext: false,
      rangeLabel: 'No runs',
    });
    expect(preparePagination({ total: 10, limit: 50, offset: 500, shown: 0 }).rangeLabel).toBe(
      'No runs on this page (10 in total)',
    );
    expect(preparePagination({ total: 0, limit: 50, offset: 0, shown: 0 }, { noun: 'sessions' }).rangeLabel).toBe(
      'No sessions',
    );
  });

  it('labels the buttons by time only for a list newest first', () => {
    expect(preparePagination({ total: 120, limit: 50, offset: 0, shown: 50 }, { newestFirst: false })).toMatchObject({
      prevLabel: '← Previous',
      nextLabel: 'Next →',
    });
  });
});

describe('prepareRunHeader', () => {
  it('summarises the run', () => {
    const header = prepareRunHeader(runSummary({ outcome: 'incomplete', spans: 1500 }), 'UTC');
    expect(header).toMatchObject({ runId: 'run-1', outcomeLabel: 'Incomplete', name: 'support-agent' });
    expect(Object.fromEntries(header.stats.map((s) => [s.label, s.value]))).toEqual({
      Started: '2023-11-14 22:13:20',
      Duration: '1.5 s',
      Steps: '4',
      Spans: '1,500',
      Cost: '$0.0123',
      Tokens: '1,500',
    });
    expect(header).toMatchObject({ sessionId: '', sessionHref: '' });
  });

  it('links the run’s session in a window that holds the run', () => {
    const startMs = 1_700_000_000_000; // the fixtures' run start
    const header = (nowMs: number) => prepareRunHeader(runSummary({ sessionId: 'conv 1' }), 'UTC', nowMs);
    expect(header(startMs + 3_600_000)).toMatchObject({ sessionId: 'conv 1', sessionHref: '/runs?session=conv+1' });
    expect(header(startMs + 3 * 86_400_000).sessionHref).toBe('/runs?range=7d&session=conv+1');
    expect(header(startMs + 20 * 86_400_000).sessionHref).toBe('/runs?range=30d&session=conv+1');
    // older than 30 days: a custom window from a day before the run to the next whole minute (the run starts 20 s into one)
    expect(header(startMs + 40 * 86_400_000 + 30_000).sessionHref).toBe(
      `/runs?range=custom&from=${encodeURIComponent(new Date(startMs - 86_400_000).toISOString())}&to=${encodeURIComponent(new Date(startMs + 40 * 86_400_000 + 40_000).toISOString())}&session=conv+1`,
    );
  });
});
