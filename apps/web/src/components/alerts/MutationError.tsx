import { isApiError } from '../../api/ApiError';

/** A failed edit, as the server explained it (a 400 names the offending field). */
export function MutationError({ error, testId }: { error: unknown; testId?: string }) {
  if (error === null || error === undefined) return null;
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : 'unexpected error';
  const code = isApiError(error) ? error.code : undefined;
  const status = isApiError(error) && error.status > 0 ? error.status : undefined;
  return (
    <div className="alert-callout alert-callout-error" role="alert" data-testid={testId ?? 'mutation-error'}>
      <strong>{status === 400 ? 'The server refused this' : 'Could not save'}</strong>
      {code && <code className="error-code">{code}</code>} {message}
    </div>
  );
}
