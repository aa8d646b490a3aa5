import { isKeyword, sqlTokens, type SqlToken } from './sqlTokens.js';

/** An `INSERT … FORMAT F` (or `… VALUES`) whose rows come as data, split into its parts. */
export interface InsertQuery {
  /** `INSERT INTO db.t (a, b)`: everything before SETTINGS / FORMAT / VALUES. */
  target: string;
  /** `SETTINGS a = 1, b = 'x'`, or '' without one. */
  settings: string;
  /** The data format (`Values` for a VALUES clause). */
  format: string;
  /** Where inline data starts in the text (the text's length when there is none). */
  dataStart: number;
}

const NOT_DATA = new Set(['SELECT', 'WITH', 'FROM', 'WATCH']);

/**
 * Recognises an INSERT that takes its rows as data — `INSERT INTO t [(cols)]
 * [SETTINGS …] FORMAT F` or `… VALUES` — and returns its parts; undefined
 * for anything else (including `INSERT … SELECT` and `INSERT … FROM INFILE`).
 * Tokenising stops at the FORMAT name, so the data after it is never read.
 */
export function parseInsertQuery(sql: string): InsertQuery | undefined {
  const tokens = sqlTokens(sql);
  const next = (): SqlToken | undefined => {
    const r = tokens.next();
    return r.done === true ? undefined : r.value;
  };
  if (!isKeyword(next(), 'INSERT') || !isKeyword(next(), 'INTO')) return undefined;
  let token = next();
  if (isKeyword(token, 'TABLE')) token = next();
  if (isKeyword(token, 'FUNCTION')) {
    // A table function: its name, then its argument list.
    if (next()?.kind !== 'word') return undefined;
    token = next();
    if (token?.text !== '(') return undefined;
    while (token !== undefined && !(token.depth === 0 && token.text === ')')) token = next();
    token = next();
  } else {
    // The table name (`t`, `db.t`, quoted parts): skip it so a table called `format` is not a keyword.
    if (token === undefined || (token.kind !== 'word' && token.kind !== 'quoted')) return undefined;
    token = next();
    if (token?.text === '.') {
      next();
      token = next();
    }
  }

  let settingsStart: number | undefined;
  for (; token !== undefined; token = next()) {
    if (token.depth > 0 || token.kind !== 'word') continue;
    const word = token.text.toUpperCase();
    if (NOT_DATA.has(word)) return undefined;
    if (word === 'SETTINGS') {
      settingsStart ??= token.start;
    } else if (word === 'VALUES') {
      return split(sql, token, settingsStart, 'Values', token.end);
    } else if (word === 'FORMAT') {
      const name = next();
      if (name === undefined || (name.kind !== 'word' && name.kind !== 'quoted')) return undefined;
      const format = name.kind === 'quoted' ? name.text.slice(1, -1) : name.text;
      return split(sql, token, settingsStart, format, dataStartAfter(sql, name.end));
    }
  }
  return undefined;
}

function split(
  sql: string,
  keyword: SqlToken,
  settingsStart: number | undefined,
  format: string,
  dataStart: number,
): InsertQuery {
  return {
    target: sql.slice(0, settingsStart ?? keyword.start).trim(),
    settings: settingsStart === undefined ? '' : sql.slice(settingsStart, keyword.start).trim(),
    format,
    dataStart,
  };
}

/**
 * As ClickHouse reads inline data: it starts after the first newline that
 * follows the FORMAT name, if only whitespace comes before it, else at the
 * first non-whitespace character.
 */
function dataStartAfter(sql: string, from: number): number {
  let i = from;
  while (i < sql.length && (sql[i] === ' ' || sql[i] === '\t' || sql[i] === '\r')) i++;
  if (sql[i] === '\n') return i + 1;
  while (i < sql.length && /\s/.test(sql[i]!)) i++;
  return i;
}
