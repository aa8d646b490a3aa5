/** A signing secret, shown once (after creating a destination or rotating its secret). */
export function SecretReveal({ title, secret, onDismiss }: { title: string; secret: string; onDismiss: () => void }) {
  return (
    <div className="alert-callout alert-callout-secret" role="status" data-testid="secret-reveal">
      <strong>{title}</strong>
      <p className="small">
        Copy this signing secret now: it is shown once and never again. Receivers verify the{' '}
        <code>webhook-signature</code> header with it.
      </p>
      <div className="alert-secret-row">
        <input
          type="text"
          readOnly
          className="mono"
          value={secret}
          data-testid="secret-value"
          aria-label="Signing secret"
          onFocus={(e) => e.currentTarget.select()}
        />
        <button type="button" className="button" onClick={() => void navigator.clipboard?.writeText(secret)}>
          Copy
        </button>
        <button type="button" className="button button-quiet" onClick={onDismiss} data-testid="secret-dismiss">
          I have saved it
        </button>
      </div>
    </div>
  );
}
