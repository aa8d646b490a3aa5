import { useMemo } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { isApiError } from '../api/ApiError';
import { ErrorView } from '../components/ErrorView';
import { RunHeader } from '../components/RunHeader';
import { SpanDetailPanel } from '../components/SpanDetailPanel';
import { StatusView } from '../components/StatusView';
import { Waterfall } from '../components/Waterfall';
import { WaterfallLegend } from '../components/WaterfallLegend';
import { useSaveReadKey } from '../hooks/useReadKey';
import { useRun } from '../hooks/useRun';
import { prepareRunHeader } from '../prepare/prepareRunHeader';
import { prepareSpanDetail } from '../prepare/prepareSpanDetail';
import { prepareWaterfall } from '../prepare/prepareWaterfall';
import { prepareRunLoops, runLoopsWindow } from '../prepare/prepareRunLoops';
import { useAnalytics } from '../hooks/useAnalytics';
import { RunLoopsBanner } from '../components/RunLoopsBanner';

/** `/runs/:runId`: run summary and its span tree as a waterfall; `?span=` selects a span. */
export function RunDetailPage() {
  const { runId = '' } = useParams();
  const [search, setSearch] = useSearchParams();
  const selectedSpanId = search.get('span') ?? undefined;
  const run = useRun(runId);
  const saveReadKey = useSaveReadKey();
  const data = run.data;

  const header = useMemo(() => (data ? prepareRunHeader(data.run, undefined, Date.now()) : undefined), [data]);
  const waterfall = useMemo(
    () =>
      data
        ? prepareWaterfall(data.spans, { runStart: data.run.startTimeUnixNano, runDuration: data.run.durationNs })
        : undefined,
    [data],
  );
  const loopWindow = data ? runLoopsWindow(data.run.startTimeUnixNano, data.run.durationNs) : undefined;
  const loopsReport = useAnalytics(
    'loops',
    { from: loopWindow?.from, to: loopWindow?.to, runIds: runId, limit: 50 },
    loopWindow !== undefined,
  );
  const loops = useMemo(() => prepareRunLoops(loopsReport.data, runId), [loopsReport.data, runId]);
  const selectedSpan = data?.spans.find((s) => s.spanId === selectedSpanId);
  const detail = useMemo(
    () => (selectedSpan && waterfall ? prepareSpanDetail(selectedSpan, waterfall.start) : undefined),
    [selectedSpan, waterfall],
  );

  const select = (spanId: string | undefined) => {
    const next = new URLSearchParams(search);
    if (spanId === undefined || spanId === selectedSpanId) next.delete('span');
    else next.set('span', spanId);
    setSearch(next, { replace: true });
  };

  return (
    <div className="run-page">
      <nav className="breadcrumbs" aria-label="Breadcrumbs">
        <Link to="/runs">Runs</Link>
        <span aria-hidden="true">/</span>
        <span className="mono">{runId}</span>
      </nav>

      {run.isPending ? (
        <div className="card">
          <StatusView kind="loading" title="Loading run…" />
        </div>
      ) : run.isError ? (
        <div className="card">
          {isApiError(run.error) && run.error.isNotFound ? (
            <StatusView
              kind="empty"
              title="Run not found"
              action={
                <Link className="button" to="/runs">
                  Back to runs
                </Link>
              }
            >
              No run with id <code>{runId}</code>. It may not have been ingested yet, or it has been deleted by
              retention.
            </StatusView>
          ) : (
            <ErrorView
              title="Could not load the run"
              error={run.error}
              onRetry={() => void run.refetch()}
              onReadKey={saveReadKey}
            />
          )}
        </div>
      ) : (
        header &&
        waterfall && (
          <>
            <RunHeader header={header} />
            {loops.detections.length > 0 && (
              <RunLoopsBanner runId={runId} detections={loops.detections} evidence={loops.evidence} />
            )}
            <div className={detail ? 'trace-layout with-panel' : 'trace-layout'}>
              <section
                className="card trace-card"
                aria-label="Trace"
                data-testid="trace"
                data-loops={loopsReport.isPending ? 'loading' : 'ready'}
              >
                <div className="trace-head">
                  <h2 className="card-title">
                    Trace{' '}
                    <span className="muted">
                      · {waterfall.rows.length} spans · {waterfall.totalLabel}
                    </span>
                    {waterfall.errorCount > 0 && (
                      <span className="count-error"> · {waterfall.errorCount} with errors</span>
                    )}
                    {waterfall.orphanCount > 0 && <span className="muted"> · {waterfall.orphanCount} orphaned</span>}
                  </h2>
                  <WaterfallLegend legend={waterfall.legend} />
                </div>
                {waterfall.rows.length === 0 ? (
                  <StatusView kind="empty" title="This run has no spans" />
                ) : (
                  <Waterfall
                    waterfall={waterfall}
                    selectedSpanId={selectedSpanId}
                    onSelect={select}
                    loopSpans={loops.spanKinds}
                  />
                )}
              </section>
              {detail && <SpanDetailPanel runId={runId} detail={detail} onClose={() => select(undefined)} />}
            </div>
          </>
        )
      )}
    </div>
  );
}
