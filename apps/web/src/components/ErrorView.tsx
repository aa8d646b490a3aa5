import { isApiError } from '../api/ApiError';
import { StatusView } from './StatusView';

/** A failed query: what went wrong, and a way to try again. */
export function ErrorView({ title, error, onRetry }: { title: string; error: unknown; onRetry?: () => void }) {
  const message = error instanceof Error ? error.message : String(error);
  const code = isApiError(error) ? error.code : undefined;
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
