export interface Column {
  header: string;
  /** Numbers read best right-aligned. */
  align?: 'left' | 'right';
}

const width = (s: string): number => [...s].length;

function pad(text: string, size: number, align: 'left' | 'right'): string {
  const fill = ' '.repeat(Math.max(0, size - width(text)));
  return align === 'right' ? fill + text : text + fill;
}

/**
 * Plain padded columns for a terminal: a header row, a rule, then the rows,
 * two spaces between columns, no trailing spaces.
 */
export function renderTable(columns: readonly Column[], rows: ReadonlyArray<readonly string[]>, indent = ''): string {
  const sizes = columns.map((c, i) => Math.max(width(c.header), ...rows.map((r) => width(r[i] ?? ''))));
  const line = (cells: readonly string[]): string =>
    indent +
    columns
      .map((c, i) => pad(cells[i] ?? '', sizes[i] ?? 0, c.align ?? 'left'))
      .join('  ')
      .trimEnd();
  return [
    line(columns.map((c) => c.header)),
    indent + sizes.map((n) => '─'.repeat(n)).join('  '),
    ...rows.map(line),
  ].join('\n');
}
