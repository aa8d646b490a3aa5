import type { LoopEvidenceView } from '../prepare/prepareLoopEvidence';
import { JsonTree } from './JsonTree';

/** A detection's repeated calls side by side: what each was given (and what it got back). */
export function LoopEvidence({ evidence }: { evidence: LoopEvidenceView }) {
  if (evidence.calls.length === 0) return null;
  if (evidence.withContent === 0)
    return <p className="muted small loop-evidence-none">No content kept for these calls.</p>;
  return (
    <div className="loop-evidence" data-testid="loop-evidence">
      {evidence.calls.map((call) => (
        <div
          key={call.spanId}
          className="loop-call"
          data-testid="loop-call"
          data-span-id={call.spanId}
          data-same={call.sameAsFirst}
        >
          <div className="loop-call-head">
            <strong>{call.label}</strong>
            {call.sameAsFirst && <span className="muted small"> same as #1</span>}
          </div>
          {call.hasContent ? (
            <>
              {call.input !== undefined && (
                <div className="loop-call-args" data-testid="loop-call-input">
                  <span className="content-label">Input</span>
                  <JsonTree value={call.input} />
                </div>
              )}
              {call.output !== undefined && (
                <div className="loop-call-result" data-testid="loop-call-output">
                  <span className="content-label">Output</span>
                  <JsonTree value={call.output} />
                </div>
              )}
            </>
          ) : (
            <p className="muted small">no content kept</p>
          )}
        </div>
      ))}
      {evidence.moreCalls > 0 && <div className="loop-call muted small">+{evidence.moreCalls} more</div>}
    </div>
  );
}
