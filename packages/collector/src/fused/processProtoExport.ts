import type { SpanContentRecord } from '@telltale/store/encode';
import { exportPayloadParts } from '../ingest/exportPayload.js';
import type { ProcessedExport } from '../ingest/processExport.js';
import { loopSignalsOf } from '../loops/loopSignals.js';
import { contentRecordOf, threadNestedUsage, threadTraceRuns } from '../normalise/normaliseRequest.js';
import type { NestedUsage } from '../normalise/nestedUsage.js';
import { DEFAULT_SPAN_LIMITS, limitsWarning, type SpanLimits } from '../normalise/spanLimits.js';
import type { TraceRuns } from '../normalise/traceRuns.js';
import { ProtoReader } from '../otlp/protoReader.js';
import { FusedRequest } from './FusedRequest.js';

export interface FusedOptions {
  /** Where untagged spans find their trace's run (default: the thread's, shared with normaliseRequest). */
  traceRuns?: TraceRuns;
  /** Which spans have usage-bearing children (default: the thread's, shared with normaliseRequest). */
  nestedUsage?: NestedUsage;
}

let state: FusedRequest | undefined;

/**
 * processExport for an OTLP/protobuf body in one pass: the request is
 * decoded straight into the columns of the spans record batch, normalised
 * as it goes (the same code as normaliseRequest decides every derived
 * column), with no object per span; the content of a span that carries
 * some is split off as splitContent would (splitScratchContent). Gives what decoding with
 * decodeTraceRequestProto, normaliseRequest and encodeExportPayload gives,
 * byte for byte.
 * @throws OtlpDecodeError on malformed input (the caller reports it as the object path does).
 */
export function processProtoExport(
  body: Uint8Array,
  projectId: string,
  opts: { limits?: SpanLimits; nowMs: number; keepContent: boolean; factsKey?: string } & FusedOptions,
): ProcessedExport {
  const req = (state ??= new FusedRequest());
  const limits = opts.limits ?? DEFAULT_SPAN_LIMITS;
  req.begin(body, projectId, limits, opts.nowMs, opts.keepContent);
  try {
    req.request(new ProtoReader(body));
    const rows = req.rows;
    (opts.traceRuns ?? threadTraceRuns).assign(projectId, rows);
    (opts.nestedUsage ?? threadNestedUsage).apply(projectId, rows);
    const cols = req.encoder.columns;
    for (let i = 0; i < rows.length; i++) cols.addLate(rows[i]!);
    const counts = req.ctx.counts;
    const errors = [...req.errors];
    const warning = limitsWarning(counts, limits);
    if (warning !== undefined) errors.push(warning);
    const content = req.content;
    const contents: SpanContentRecord[] = req.withContent.map(({ record, split }) =>
      contentRecordOf(projectId, record, split, limits.maxContentBytes, content),
    );
    if (content.truncated > 0)
      errors.push(`${content.truncated} spans' content cut to ${limits.maxContentBytes} bytes`);
    const runIds: string[] = [];
    const seenRuns = new Set<string>();
    for (let i = 0; i < rows.length; i++) {
      const run = rows[i]!.runId;
      if (!seenRuns.has(run)) {
        seenRuns.add(run);
        runIds.push(run);
      }
    }
    return {
      projectId,
      parts:
        rows.length === 0
          ? []
          : exportPayloadParts(
              projectId,
              runIds,
              contents,
              req.encoder.finish(),
              opts.factsKey === undefined ? {} : { factsKey: opts.factsKey },
            ),
      spanCount: rows.length,
      rejectedSpans: req.rejectedSpans,
      rejectedBy: req.rejectedBy,
      cut: counts,
      errors,
      content,
      loops: loopSignalsOf(projectId, rows),
    };
  } finally {
    req.end();
  }
}
