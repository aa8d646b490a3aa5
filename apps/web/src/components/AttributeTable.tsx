import type { AttributeEntry } from '../prepare/prepareSpanDetail';

export function AttributeTable({ entries, emptyText }: { entries: readonly AttributeEntry[]; emptyText: string }) {
  if (entries.length === 0) return <p className="muted small">{emptyText}</p>;
  return (
    <table className="kv-table">
      <tbody>
        {entries.map((entry) => (
          <tr key={entry.key}>
            <th scope="row" className="mono">
              {entry.key}
            </th>
            <td className="mono">{entry.multiline ? <pre>{entry.value}</pre> : entry.value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
