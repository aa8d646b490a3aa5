import { describe, expect, it } from 'vitest';
import { destination, MS0, rule, state } from '../testing/alertsFixtures';
import { prepareRuleRows, prepareRuleSummary, prepareStateGroups } from './prepareAlertRules';

describe('alert rule rows', () => {
  it('shows a single series with its value against the threshold', () => {
    const [row] = prepareRuleRows(
      [rule()],
      [state({ state: 'firing', lastValue: 0.4, lastSample: 10 })],
      [destination()],
      'UTC',
    );
    expect(row).toMatchObject({
      id: 'rule_1',
      href: '/alerts/rules/rule_1',
      tone: 'firing',
      stateLabel: 'Firing',
      stateDetail: '40% (n = 10)',
      conditionLabel: 'End-to-end success < 80%',
      windowLabel: 'over 10m, every 1m',
      filtersLabel: 'agent=checkout',
      destinationsLabel: 'on-call',
    });
    expect(row?.groups[0]).toMatchObject({
      groupLabel: 'All runs',
      valueLabel: '40%',
      thresholdLabel: '80%',
      comparisonLabel: '40% vs < 80%',
      sinceLabel: '2023-11-14 22:13:20',
    });
  });

  it('takes the most severe state of several groups and links looping runs', () => {
    const loops = rule({
      id: 'rule_2',
      metric: 'any_loop',
      comparison: 'gt',
      threshold: 0,
      filters: {},
      destinationIds: ['dst_gone'],
    });
    const states = [
      state({ ruleId: 'rule_2', groupKey: 'run:b', state: 'resolved', lastValue: 0 }),
      state({ ruleId: 'rule_2', groupKey: 'run:a', state: 'firing', lastValue: 3 }),
      state({ ruleId: 'rule_1', state: 'ok' }),
    ];
    const [row] = prepareRuleRows([loops], states, [], 'UTC');
    expect(row).toMatchObject({
      tone: 'firing',
      stateDetail: '1 of 2 groups firing',
      filtersLabel: 'all runs',
      destinationsLabel: 'dst_gone',
    });
    expect(row?.groups.map((g) => [g.groupLabel, g.runHref, g.tone, g.valueLabel])).toEqual([
      ['run a', '/runs/a', 'firing', '3'],
      ['run b', '/runs/b', 'resolved', '0'],
    ]);
  });

  it('says when a rule has no state yet, or is disabled', () => {
    const [fresh, disabled] = prepareRuleRows([rule(), rule({ id: 'rule_off', enabled: false })], [], []);
    expect(fresh).toMatchObject({ tone: 'unknown', stateLabel: 'Not evaluated', stateDetail: '', groups: [] });
    expect(disabled).toMatchObject({ stateLabel: 'Disabled', enabled: false });
  });

  it('keeps a state the dashboard does not know as the server named it', () => {
    const [group] = prepareStateGroups(rule(), [state({ state: 'silenced', lastValue: undefined })]);
    expect(group).toMatchObject({ tone: 'unknown', stateLabel: 'silenced', valueLabel: '–' });
  });

  it('summarises the definition', () => {
    const summary = Object.fromEntries(
      prepareRuleSummary(rule({ repeatIntervalSeconds: 0, updatedAtMs: MS0 }), [destination()], 'UTC').map((i) => [
        i.label,
        i.value,
      ]),
    );
    expect(summary).toMatchObject({
      Window: '10m',
      'Minimum samples': '5',
      For: '0s',
      'Repeat firing every': 'never',
      Labels: 'team=payments',
      Destinations: 'on-call',
      Updated: '2023-11-14 22:13:20',
    });
  });
});
