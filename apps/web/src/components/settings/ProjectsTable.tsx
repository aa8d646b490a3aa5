import type { ProjectRow } from '../../prepare/prepareAdminKeys';

/** The projects; choosing one shows its keys. */
export function ProjectsTable({
  rows,
  selected,
  onSelect,
}: {
  rows: readonly ProjectRow[];
  selected: string | undefined;
  onSelect: (id: string) => void;
}) {
  return (
    <div className="table-wrap">
      <table className="table" data-testid="projects-table">
        <thead>
          <tr>
            <th scope="col">Project</th>
            <th scope="col">Ingest quota</th>
            <th scope="col">Created</th>
            <th scope="col" aria-label="Keys" />
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr
              key={row.id}
              data-testid="project-row"
              data-project-id={row.id}
              aria-selected={row.id === selected}
              className={row.id === selected ? 'selected' : undefined}
            >
              <td className="alert-rule-cell">
                <span className="run-name">{row.name}</span>
                <span className="mono muted small alert-subline">{row.id}</span>
              </td>
              <td>{row.quota}</td>
              <td className="small">{row.created}</td>
              <td>
                <button
                  type="button"
                  className="button"
                  disabled={row.id === selected}
                  onClick={() => onSelect(row.id)}
                  data-testid="project-select"
                >
                  {row.id === selected ? 'Showing keys' : 'Show keys'}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
