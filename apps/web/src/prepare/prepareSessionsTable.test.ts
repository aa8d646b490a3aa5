import { describe, expect, it } from 'vitest';
import { sessionsPageSchema } from '@telltale/api-contract';
import { T0 } from '../testing/fixtures';
import { prepareSessionsTable } from './prepareSessionsTable';

function sessionJson(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    sessionId: 'conv-1',
    runs: 5,
    successRuns: 3,
    failureRuns: 2,
    incompleteRuns: 0,
    firstStartUnixNano: T0.toString(),
    lastEndUnixNano: (T0 + 125_000_000_000n).toString(),
    costUsd: 0.0421,
    inputTokens: 9_000,
    outputTokens: 3_400,
    services: ['support'],
    agents: ['refund-agent', 'triage-agent'],
    ...overrides,
  };
}

function parse(...sessions: Record<string, unknown>[]) {
  return sessionsPageSchema.parse({ sessions, total: sessions.length, limit: 50, offset: 0 }).sessions;
}

describe('prepareSessionsTable', () => {
  it('formats each session, with its runs by outcome and a link to its runs', () => {
    const [row] = prepareSessionsTable(parse(sessionJson()), 'range=7d&service=support&agent=x', 'UTC');
    expect(row).toEqual({
      sessionId: 'conv-1',
      sessionLabel: 'conv-1',
      href: '/runs?range=7d&service=support&session=conv-1',
      runs: 5,
      runsLabel: '5',
      outcomes: [
        { outcome: 'success', runs: 3, runsLabel: '3', label: 'Success', color: '#16a34a' },
        { outcome: 'failure', runs: 2, runsLabel: '2', label: 'Failure', color: '#dc2626' },
      ],
      successRuns: 3,
      failureRuns: 2,
      incompleteRuns: 0,
      firstStartLabel: '2023-11-14 22:13:20',
      firstStartIso: '2023-11-14T22:13:20.000Z',
      firstStartNs: T0.toString(),
      lastEndLabel: '2023-11-14 22:15:25',
      lastEndIso: '2023-11-14T22:15:25.000Z',
      lastEndNs: (T0 + 125_000_000_000n).toString(),
      durationLabel: '2m 05s',
      costUsd: 0.0421,
      costLabel: '$0.0421',
      tokens: 12_400,
      tokensLabel: '12.4k',
      tokensTitle: '9,000 in / 3,400 out',
      agentsLabel: 'refund-agent, triage-agent',
      servicesLabel: 'support',
    });
  });

  it('keeps the server’s order, shortens long ids and copes with a session of one incomplete run', () => {
    const long = 'a-very-long-conversation-identifier-0001';
    const rows = prepareSessionsTable(
      parse(
        sessionJson({ sessionId: 'newest' }),
        sessionJson({
          sessionId: long,
          runs: 1,
          successRuns: 0,
          failureRuns: 0,
          incompleteRuns: 1,
          lastEndUnixNano: T0.toString(),
          agents: [],
        }),
      ),
      '',
      'UTC',
    );
    expect(rows.map((r) => r.sessionId)).toEqual(['newest', long]);
    expect(rows[1]).toMatchObject({
      sessionLabel: 'a-very-long-conversation…',
      href: `/runs?session=${long}`,
      durationLabel: '0',
      agentsLabel: '',
    });
    expect(rows[1]!.outcomes.map((o) => [o.outcome, o.runs])).toEqual([['incomplete', 1]]);
  });
});
