import { LongText } from './LongText';

/** Levels open at first; deeper objects start folded. */
const OPEN_DEPTH = 2;

/** A JSON value as a folding tree: each object or array is a `<details>` of its entries. */
export function JsonTree({ value, depth = 0 }: { value: unknown; depth?: number }) {
  if (value === null || typeof value !== 'object') return <JsonScalar value={value} />;
  const isArray = Array.isArray(value);
  const entries: [string, unknown][] = isArray
    ? value.map((v, i): [string, unknown] => [String(i), v])
    : Object.entries(value as Record<string, unknown>);
  const [open, close] = isArray ? ['[', ']'] : ['{', '}'];
  if (entries.length === 0) return <span className="json-punct">{`${open}${close}`}</span>;
  const size = isArray ? `${entries.length} items` : `${entries.length} ${entries.length === 1 ? 'key' : 'keys'}`;
  return (
    <details className="json-node" open={depth < OPEN_DEPTH}>
      <summary>
        <span className="json-punct">{open}</span>
        <span className="muted small"> {size} </span>
        <span className="json-punct">{close}</span>
      </summary>
      <ul className="json-entries">
        {entries.map(([key, child]) => (
          <li key={key}>
            <span className={isArray ? 'json-index' : 'json-key'}>{isArray ? key : JSON.stringify(key)}</span>
            <span className="json-punct">: </span>
            <JsonTree value={child} depth={depth + 1} />
          </li>
        ))}
      </ul>
    </details>
  );
}

function JsonScalar({ value }: { value: unknown }) {
  if (typeof value === 'string')
    return (
      <span className="json-string">
        &quot;
        <LongText text={value} />
        &quot;
      </span>
    );
  const literal =
    typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint'
      ? String(value)
      : value === null
        ? 'null'
        : typeof value;
  return <span className="json-literal">{literal}</span>;
}
