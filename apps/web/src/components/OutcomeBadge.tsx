import type { RunOutcome } from '@telltale/api-contract';

export function OutcomeBadge({ outcome, label }: { outcome: RunOutcome; label: string }) {
  return (
    <span className={`badge outcome-${outcome}`} data-outcome={outcome}>
      <span className="badge-dot" aria-hidden="true" />
      {label}
    </span>
  );
}
