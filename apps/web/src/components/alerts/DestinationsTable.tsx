import type { DestinationRow } from '../../prepare/prepareAlertDelivery';
import { AlertStateBadge } from './AlertStateBadge';

export interface DestinationActions {
  onTest: (id: string) => void;
  onRotate: (id: string) => void;
  onToggle: (id: string, enabled: boolean) => void;
  onDelete: (id: string) => void;
}

/** Webhook destinations with their actions; `busyId` is the one an action is running on. */
export function DestinationsTable({
  rows,
  busyId,
  actions,
}: {
  rows: readonly DestinationRow[];
  busyId: string | undefined;
  actions: DestinationActions;
}) {
  return (
    <div className="table-wrap">
      <table className="table" data-testid="destinations-table">
        <thead>
          <tr>
            <th scope="col">Destination</th>
            <th scope="col">Format</th>
            <th scope="col">Status</th>
            <th scope="col">Signing secret</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const busy = busyId === row.id;
            return (
              <tr key={row.id} data-testid="destination-row" data-destination-id={row.id} data-enabled={row.enabled}>
                <td className="alert-rule-cell">
                  <span className="run-name">{row.name}</span>
                  <span className="mono muted small alert-subline">{row.url}</span>
                </td>
                <td>{row.format}</td>
                <td>
                  <AlertStateBadge tone={row.enabled ? 'delivered' : 'failed'} label={row.statusLabel} />
                  {row.disabledReason && <span className="muted small alert-subline">{row.disabledReason}</span>}
                </td>
                <td className="mono small">{row.secretsLabel}</td>
                <td>
                  <div className="alert-actions">
                    <button
                      type="button"
                      className="button"
                      disabled={busy}
                      onClick={() => actions.onTest(row.id)}
                      data-testid="destination-test"
                    >
                      Send test
                    </button>
                    <button
                      type="button"
                      className="button"
                      disabled={busy}
                      onClick={() => actions.onRotate(row.id)}
                      data-testid="destination-rotate"
                    >
                      Rotate secret
                    </button>
                    <button
                      type="button"
                      className="button"
                      disabled={busy}
                      onClick={() => actions.onToggle(row.id, !row.enabled)}
                      data-testid="destination-toggle"
                    >
                      {row.enabled ? 'Disable' : 'Enable'}
                    </button>
                    <button
                      type="button"
                      className="button button-quiet"
                      disabled={busy}
                      onClick={() => actions.onDelete(row.id)}
                      data-testid="destination-delete"
                    >
                      Delete
                    </button>
                  </div>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
