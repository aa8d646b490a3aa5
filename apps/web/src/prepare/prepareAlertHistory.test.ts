import { describe, expect, it } from 'vitest';
import { historyEvent, rule } from '../testing/alertsFixtures';
import { prepareHistoryRows, prepareOffsetPage } from './prepareAlertHistory';

describe('alert history', () => {
  it('keeps the server order (newest first) and reads values in the rule metric unit', () => {
    const events = [
      historyEvent({ eventId: 'ev_2', atMs: 2_000, fromState: 'firing', toState: 'resolved', value: 0.92 }),
      historyEvent({ eventId: 'ev_1', atMs: 1_000, fromState: 'ok', toState: 'firing', value: 0.4 }),
    ];
    const rows = prepareHistoryRows(events, [rule()], 'UTC');
    expect(
      rows.map((r) => [r.key, r.fromLabel, r.toLabel, r.valueLabel, r.thresholdLabel, r.ruleName, r.ruleHref]),
    ).toEqual([
      ['ev_2', 'Firing', 'Resolved', '92%', '80%', 'checkout success', '/alerts/rules/rule_1'],
      ['ev_1', 'OK', 'Firing', '40%', '80%', 'checkout success', '/alerts/rules/rule_1'],
    ]);
    expect(rows[0]?.atIso).toBe('1970-01-01T00:00:02.000Z');
  });

  it('shows events of a deleted rule by id, with raw values', () => {
    const [row] = prepareHistoryRows(
      [historyEvent({ ruleId: 'rule_gone', groupKey: 'run:r1', value: undefined, threshold: 0 })],
      [],
    );
    expect(row).toMatchObject({
      ruleName: 'rule_gone',
      ruleHref: undefined,
      groupLabel: 'run r1',
      valueLabel: '–',
      thresholdLabel: '0',
    });
  });

  it('pages by offset, knowing a next page from the one extra row', () => {
    expect(prepareOffsetPage({ offset: 0, pageSize: 25, received: 26 })).toEqual({
      page: 1,
      hasPrev: false,
      hasNext: true,
      rangeLabel: '1–25',
    });
    expect(prepareOffsetPage({ offset: 25, pageSize: 25, received: 6 })).toEqual({
      page: 2,
      hasPrev: true,
      hasNext: false,
      rangeLabel: '26–31',
    });
    expect(prepareOffsetPage({ offset: 50, pageSize: 25, received: 0 })).toEqual({
      page: 3,
      hasPrev: true,
      hasNext: false,
      rangeLabel: 'Nothing here',
    });
  });
});
