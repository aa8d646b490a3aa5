import { useMemo } from 'react';
import { useRunContent } from '../hooks/useRunContent';
import { contentState } from '../prepare/prepareContent';
import type { LoopRow } from '../prepare/prepareLoops';
import { prepareLoopEvidence } from '../prepare/prepareLoopEvidence';
import type { LoopEvidenceRef } from '../prepare/prepareRunLoops';
import { LoopEvidence } from './LoopEvidence';

/**
 * The run's loop detections above its waterfall: what repeated, how often,
 * what it wasted, and the repeated calls' arguments side by side (the run's
 * content, fetched once).
 */
export function RunLoopsBanner({
  runId,
  detections,
  evidence,
}: {
  runId: string;
  detections: readonly LoopRow[];
  evidence: readonly LoopEvidenceRef[];
}) {
  const content = useRunContent(runId, detections.length > 0);
  const views = useMemo(
    () => new Map(prepareLoopEvidence(evidence, content.data?.spans ?? []).map((v) => [v.key, v])),
    [evidence, content.data],
  );
  // the run answer has no 404; a 403 reads as for one span
  const state = contentState({ isPending: content.isPending, error: content.error, data: undefined });
  return (
    <section
      className="card loop-banner"
      aria-label="Loops in this run"
      data-testid="run-loops"
      data-content={content.data !== undefined ? 'ready' : state.kind}
    >
      <h2 className="card-title">⟳ {detections.length === 1 ? 'A loop' : `${detections.length} loops`} in this run</h2>
      <ul>
        {detections.map((d) => {
          const view = views.get(d.key);
          return (
            <li key={d.key} data-testid="run-loop" data-kind={d.kind} data-count={d.count}>
              <strong>{d.kindLabel}</strong> <code>{d.subject}</code> ×{d.count} — wasted {d.wastedTimeLabel} and{' '}
              {d.wastedCostLabel}
              {content.data !== undefined && view !== undefined && <LoopEvidence evidence={view} />}
            </li>
          );
        })}
      </ul>
      {content.data === undefined && state.kind === 'hidden' && (
        <p className="muted small" data-testid="loop-content-hidden">
          Content hidden for this project: the repeated calls&apos; arguments are not shown.
        </p>
      )}
      {content.data === undefined && state.kind === 'error' && (
        <p className="muted small">Could not load the repeated calls&apos; arguments.</p>
      )}
    </section>
  );
}
