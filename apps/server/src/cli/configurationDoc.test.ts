import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { addStartOptions, envVarOf } from './startOptions.js';

const DOC = new URL('../../../../docs/configuration.md', import.meta.url);

/** The rows of the `telltale start` table in docs/configuration.md: the long flag and the variable of each. */
function documentedStartFlags(): Array<{ flag: string; variable: string }> {
  const text = readFileSync(DOC, 'utf8');
  const section = text.split(/^## /m).find((s) => s.startsWith('`telltale start`'));
  if (section === undefined) throw new Error('docs/configuration.md has no "## `telltale start`" section');
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `--'))
    .map((line) => {
      const [flagCell = '', variableCell = ''] = line.split('|').slice(1, 3);
      return {
        flag: /`(--[a-z0-9-]+)`/.exec(flagCell)?.[1] ?? flagCell,
        variable: variableCell.trim().replace(/`/g, ''),
      };
    });
}

describe('docs/configuration.md', () => {
  it('documents every start flag, with its variable, and no flag that does not exist', () => {
    const rows = documentedStartFlags();
    const flags = addStartOptions(new Command('start')).options.flatMap((o) => (o.long === undefined ? [] : [o.long]));
    expect(rows.map((r) => r.flag).sort()).toEqual([...flags].sort());
    for (const row of rows) expect(row.variable, row.flag).toBe(envVarOf(row.flag));
  });
});
