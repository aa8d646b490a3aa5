import { useState } from 'react';
import { isApiError } from '../api/ApiError';
import { StatusView } from './StatusView';

/**
 * A failed query: what went wrong, and a way to try again. A 401/403 from a
 * server started with `--auth keys` asks for a read key when `onReadKey` is given.
 */
export function ErrorView({
  title,
  error,
  onRetry,
  onReadKey,
}: {
  title: string;
  error: unknown;
  onRetry?: () => void;
  onReadKey?: (key: string) => void;
}) {
  const message = error instanceof Error ? error.message : String(error);
  const code = isApiError(error) ? error.code : undefined;
  if (onReadKey && isApiError(error) && (error.status === 401 || error.status === 403)) {
    return <ReadKeyPrompt message={message} onReadKey={onReadKey} />;
  }
  return (
    <StatusView
      kind="error"
      title={title}
      action={
        onRetry && (
          <button type="button" className="button" onClick={onRetry}>
            Try again
          </button>
        )
      }
    >
      {code && <code className="error-code">{code}</code>} {message}
    </StatusView>
  );
}

function ReadKeyPrompt({ message, onReadKey }: { message: string; onReadKey: (key: string) => void }) {
  const [key, setKey] = useState('');
  return (
    <StatusView kind="error" title="This server needs a read key">
      <p>
        {message}. Create one with <code>telltale keys create --project &lt;id&gt; --kind read</code> and paste it here;
        this browser keeps it.
      </p>
      <form
        className="read-key-form"
        onSubmit={(event) => {
          event.preventDefault();
          if (key.trim() !== '') onReadKey(key);
        }}
      >
        <input
          type="password"
          aria-label="Read key"
          placeholder="tt_read_…"
          autoComplete="off"
          data-testid="read-key-input"
          value={key}
          onChange={(event) => setKey(event.target.value)}
        />
        <button type="submit" className="button" data-testid="read-key-submit">
          Use key
        </button>
      </form>
    </StatusView>
  );
}
