/**
 * One lexical token of ClickHouse SQL, as far as this server needs to know:
 * words (keywords, identifiers, numbers), quoted strings, quoted
 * identifiers, and single punctuation characters. Comments and whitespace
 * are skipped. `depth` counts the enclosing (), [] and {} at the token.
 */
export interface SqlToken {
  kind: 'word' | 'string' | 'quoted' | 'punct';
  /** The token's source text (quotes included). */
  text: string;
  start: number;
  end: number;
  depth: number;
}

const WORD = /[A-Za-z0-9_$]/;
const OPEN = new Set(['(', '[', '{']);
const CLOSE = new Set([')', ']', '}']);

/**
 * Lazily tokenises `sql` from `from`. Lazy on purpose: an INSERT's inline
 * data follows its FORMAT clause, and the caller stops before reading it.
 * Unterminated strings or comments run to the end of the text (the engine
 * reports the syntax error).
 */
export function* sqlTokens(sql: string, from = 0): Generator<SqlToken> {
  let i = from;
  let depth = 0;
  while (i < sql.length) {
    const c = sql[i]!;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f' || c === '\v') {
      i++;
    } else if ((c === '-' && sql[i + 1] === '-') || c === '#') {
      const nl = sql.indexOf('\n', i);
      i = nl < 0 ? sql.length : nl + 1;
    } else if (c === '/' && sql[i + 1] === '*') {
      i = skipBlockComment(sql, i);
    } else if (c === "'" || c === '"' || c === '`') {
      const end = skipQuoted(sql, i, c);
      yield { kind: c === "'" ? 'string' : 'quoted', text: sql.slice(i, end), start: i, end, depth };
      i = end;
    } else if (WORD.test(c)) {
      let end = i + 1;
      while (end < sql.length && WORD.test(sql[end]!)) end++;
      yield { kind: 'word', text: sql.slice(i, end), start: i, end, depth };
      i = end;
    } else {
      if (CLOSE.has(c)) depth = Math.max(0, depth - 1);
      yield { kind: 'punct', text: c, start: i, end: i + 1, depth };
      if (OPEN.has(c)) depth++;
      i++;
    }
  }
}

/** ClickHouse block comments nest. */
function skipBlockComment(sql: string, start: number): number {
  let nesting = 0;
  let i = start;
  while (i < sql.length) {
    if (sql[i] === '/' && sql[i + 1] === '*') {
      nesting++;
      i += 2;
    } else if (sql[i] === '*' && sql[i + 1] === '/') {
      nesting--;
      i += 2;
      if (nesting === 0) return i;
    } else {
      i++;
    }
  }
  return sql.length;
}

/** A quoted string or identifier: backslash escapes, and a doubled quote stands for one. */
function skipQuoted(sql: string, start: number, quote: string): number {
  let i = start + 1;
  while (i < sql.length) {
    const c = sql[i];
    if (c === '\\') {
      i += 2;
    } else if (c === quote) {
      if (sql[i + 1] === quote) i += 2;
      else return i + 1;
    } else {
      i++;
    }
  }
  return sql.length;
}

/** True when `token` is the keyword `word` (case-insensitive). */
export function isKeyword(token: SqlToken | undefined, word: string): boolean {
  return token?.kind === 'word' && token.text.toUpperCase() === word;
}
