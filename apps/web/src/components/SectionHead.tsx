import type { ReactNode } from 'react';

/** A card's head: its title and what it holds on the left, its controls (a "New …" button, a filter) on the right. */
export function SectionHead({ title, note, children }: { title: ReactNode; note?: ReactNode; children?: ReactNode }) {
  return (
    <div className="section-head">
      <div>
        <h2 className="card-title">{title}</h2>
        {note !== undefined && <p className="muted small">{note}</p>}
      </div>
      {children}
    </div>
  );
}

/** A section head's "New …" button, shown while no form is open. */
export function NewButton({
  label,
  testId,
  hidden = false,
  onClick,
}: {
  label: string;
  testId: string;
  hidden?: boolean;
  onClick: () => void;
}) {
  if (hidden) return null;
  return (
    <button type="button" className="button button-primary" data-testid={testId} onClick={onClick}>
      {label}
    </button>
  );
}
