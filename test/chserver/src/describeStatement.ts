import { isKeyword, sqlTokens, type SqlToken } from './sqlTokens.js';

/** What the server needs to know about a (non-data) statement before running it. */
export interface StatementShape {
  /** The first keyword, upper-cased (`SELECT`, `CREATE`, `SET`, …); '' for an empty text. */
  keyword: string;
  /** The `FORMAT` clause's name at the end of the statement, if any. */
  format: string | undefined;
  /** `{name:Type}` placeholders the statement uses. */
  placeholders: string[];
  /** Where a second statement starts after a `;`, if there is one (ClickHouse over HTTP refuses those). */
  secondStatementAt: number | undefined;
}

/** Scans a statement's text (never an INSERT's inline data: see parseInsertQuery). */
export function describeStatement(sql: string): StatementShape {
  const shape: StatementShape = { keyword: '', format: undefined, placeholders: [], secondStatementAt: undefined };
  const tokens: SqlToken[] = [];
  for (const token of sqlTokens(sql)) {
    if (tokens.at(-1)?.text === ';' && token.depth === 0 && token.text !== ';') {
      shape.secondStatementAt = token.start;
      break;
    }
    tokens.push(token);
  }
  const body = tokens.filter((t) => t.text !== ';' || t.depth > 0);
  if (body[0]?.kind === 'word') shape.keyword = body[0].text.toUpperCase();
  for (let i = 0; i + 2 < body.length; i++) {
    if (body[i]!.text === '{' && body[i + 1]!.kind === 'word' && body[i + 2]!.text === ':')
      shape.placeholders.push(body[i + 1]!.text);
  }
  shape.format = trailingFormat(body);
  return shape;
}

/** `… FORMAT name` at the end (or before a trailing SETTINGS clause) at the top level. */
function trailingFormat(tokens: readonly SqlToken[]): string | undefined {
  for (let i = tokens.length - 2; i >= 0; i--) {
    const t = tokens[i]!;
    if (t.depth !== 0 || !isKeyword(t, 'FORMAT')) continue;
    const name = tokens[i + 1]!;
    const after = tokens[i + 2];
    if (name.kind !== 'word' && name.kind !== 'quoted') return undefined;
    if (after !== undefined && !isKeyword(after, 'SETTINGS')) return undefined;
    return name.kind === 'quoted' ? name.text.slice(1, -1) : name.text;
  }
  return undefined;
}
