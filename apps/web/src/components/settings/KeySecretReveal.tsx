import { useState } from 'react';

/** A key just created: the whole key, shown this once, with a copy button and how to use it. */
export function KeySecretReveal({
  title,
  secret,
  usage,
  onDismiss,
}: {
  title: string;
  secret: string;
  usage: string;
  onDismiss: () => void;
}) {
  const [copied, setCopied] = useState<'yes' | 'failed' | undefined>();
  const copy = () => {
    const clipboard = typeof navigator === 'undefined' ? undefined : navigator.clipboard;
    if (clipboard === undefined) {
      setCopied('failed');
      return;
    }
    clipboard.writeText(secret).then(
      () => setCopied('yes'),
      () => setCopied('failed'),
    );
  };
  return (
    <div className="alert-callout alert-callout-secret" role="status" data-testid="key-secret-reveal">
      <strong>{title}</strong>
      <p className="small">
        <strong>Copy this key now: you won’t see it again.</strong> The server keeps only a hash of its secret; if it is
        lost, create another and revoke this one.
      </p>
      <div className="alert-secret-row">
        <input
          type="text"
          readOnly
          className="mono"
          value={secret}
          data-testid="key-secret"
          aria-label="New API key"
          onFocus={(e) => e.currentTarget.select()}
        />
        <button type="button" className="button" onClick={copy} data-testid="key-secret-copy">
          {copied === 'yes' ? 'Copied' : 'Copy'}
        </button>
        <button type="button" className="button button-quiet" onClick={onDismiss} data-testid="key-secret-dismiss">
          I have saved it
        </button>
      </div>
      {copied === 'failed' && (
        <p className="small muted">This browser would not copy it: select the key and copy it by hand.</p>
      )}
      <p className="small mono muted">{usage}</p>
    </div>
  );
}
