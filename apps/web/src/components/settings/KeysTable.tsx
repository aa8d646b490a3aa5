import type { KeyRow } from '../../prepare/prepareAdminKeys';
import { AlertStateBadge } from '../alerts/AlertStateBadge';

/** A project's keys (never their secrets); `busyId` is the one being revoked. */
export function KeysTable({
  rows,
  busyId,
  onRevoke,
}: {
  rows: readonly KeyRow[];
  busyId: string | undefined;
  onRevoke: (keyId: string) => void;
}) {
  return (
    <div className="table-wrap">
      <table className="table" data-testid="keys-table">
        <thead>
          <tr>
            <th scope="col">Key</th>
            <th scope="col">Kind</th>
            <th scope="col">Created</th>
            <th scope="col">Status</th>
            <th scope="col" aria-label="Actions" />
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.keyId} data-testid="key-row" data-key-id={row.keyId} data-revoked={row.revoked}>
              <td className="alert-rule-cell">
                <span className="run-name">{row.name}</span>
                <span className="mono muted small alert-subline">{row.hint}</span>
              </td>
              <td>{row.kindLabel}</td>
              <td className="small">{row.created}</td>
              <td>
                <AlertStateBadge tone={row.revoked ? 'failed' : 'delivered'} label={row.status} />
              </td>
              <td>
                {!row.revoked && (
                  <button
                    type="button"
                    className="button button-quiet"
                    disabled={busyId === row.keyId}
                    onClick={() => onRevoke(row.keyId)}
                    data-testid="key-revoke"
                  >
                    Revoke
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
