import { useSpanContent } from '../hooks/useSpanContent';
import { contentState } from '../prepare/prepareContent';
import { ContentBlocks } from './ContentBlocks';
import { ErrorView } from './ErrorView';
import { StatusView } from './StatusView';

/**
 * What a step was given and produced, read for the selected span only; a
 * failed step's error sits beside its input. Says why when nothing is shown.
 */
export function SpanContentSection({
  runId,
  spanId,
  errorMessage,
}: {
  runId: string;
  spanId: string;
  /** Set for a failed step. */
  errorMessage: string | undefined;
}) {
  const query = useSpanContent(runId, spanId);
  const state = contentState(query);
  return (
    <section className="panel-section" aria-label="Input and output" data-testid="span-content" data-state={state.kind}>
      <h3>Input and output</h3>
      {state.kind === 'loading' && <p className="muted small">Loading content…</p>}
      {state.kind === 'none' && (
        <StatusView kind="empty" title="No content kept for this step">
          Inputs and outputs are kept when the agent captures them (the SDK&apos;s{' '}
          <code>capture: &apos;full&apos;</code>, or GenAI message attributes) and the project stores content; they
          expire sooner than spans.
        </StatusView>
      )}
      {state.kind === 'hidden' && (
        <StatusView kind="empty" title="Content hidden for this project">
          An admin can let read keys read it (the project&apos;s <code>contentReadable</code> switch).
        </StatusView>
      )}
      {state.kind === 'error' && (
        <ErrorView title="Could not load the content" error={state.error} onRetry={() => void query.refetch()} />
      )}
      {state.kind === 'ready' && (
        <>
          {(state.view.truncatedNote ?? state.view.redactedNote) !== undefined && (
            <p className="content-notes small">
              {state.view.truncatedNote && <span data-testid="content-truncated">{state.view.truncatedNote}</span>}
              {state.view.redactedNote && <span data-testid="content-redacted">{state.view.redactedNote}</span>}
            </p>
          )}
          <div className={errorMessage === undefined ? 'content-pair' : 'content-pair with-error'}>
            <div className="content-side" data-testid="content-input">
              <h4>Input</h4>
              <ContentBlocks blocks={state.view.input} emptyText="No input kept" />
            </div>
            {errorMessage !== undefined && (
              <div className="content-side content-error" data-testid="content-error">
                <h4>Error</h4>
                <pre>{errorMessage}</pre>
              </div>
            )}
          </div>
          <div className="content-side" data-testid="content-output">
            <h4>Output</h4>
            <ContentBlocks
              blocks={state.view.output}
              emptyText={errorMessage === undefined ? 'No output kept' : 'No output: the step failed'}
            />
          </div>
        </>
      )}
    </section>
  );
}
