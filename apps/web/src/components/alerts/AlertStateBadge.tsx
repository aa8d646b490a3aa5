import type { StateTone } from '../../prepare/prepareAlertRules';
import type { DeliveryTone } from '../../prepare/prepareAlertDelivery';

/** An alert state (ok / pending / firing / resolved) or a delivery state, as a coloured pill. */
export function AlertStateBadge({
  tone,
  label,
  testId,
}: {
  tone: StateTone | DeliveryTone;
  label: string;
  testId?: string;
}) {
  return (
    <span className={`badge alert-tone-${tone}`} data-testid={testId} data-state={tone}>
      <span className="badge-dot" aria-hidden="true" />
      {label}
    </span>
  );
}
