import { describe, expect, it } from 'vitest';
import { renderTable } from './renderTable.js';

describe('renderTable', () => {
  it('pads columns to the widest cell, right-aligns numbers, trims line ends', () => {
    const text = renderTable(
      [{ header: 'step' }, { header: 'p', align: 'right' }],
      [
        ['search', '80.0%'],
        ['plan', '100.0%'],
      ],
    );
    expect(text.split('\n')).toEqual(['step         p', '──────  ──────', 'search   80.0%', 'plan    100.0%']);
  });

  it('counts characters, not UTF-16 units or bytes, and indents', () => {
    const lines = renderTable([{ header: 'x' }, { header: 'y' }], [['µs—', '1']], '  ').split('\n');
    expect(lines[0]).toBe('  x    y');
    expect(lines[2]).toBe('  µs—  1');
  });

  it('renders a header and rule when there are no rows', () => {
    expect(renderTable([{ header: 'agent' }], [])).toBe('agent\n─────');
  });
});
