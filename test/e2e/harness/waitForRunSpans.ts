import type { ApiSpan } from './interopApi.js';
import type { TelltaleProcess } from './TelltaleProcess.js';

/** A span of `GET /api/v1/runs/:id`, with the fields the propagation tests read. */
export interface StoredSpan extends ApiSpan {
  traceId: string;
  kind: number;
  attributes: Record<string, unknown>;
  resourceAttributes: Record<string, unknown>;
}

/** Polls `GET /api/v1/runs/:id` until it holds at least `count` spans; throws after `timeoutMs`. */
export async function waitForRunSpans(
  telltale: TelltaleProcess,
  runId: string,
  count: number,
  timeoutMs = 20_000,
): Promise<StoredSpan[]> {
  const deadline = Date.now() + timeoutMs;
  let spans: StoredSpan[] = [];
  while (Date.now() < deadline) {
    const { status, body } = await telltale.getJson<{ spans?: StoredSpan[] }>(
      `/api/v1/runs/${encodeURIComponent(runId)}`,
    );
    spans = status === 200 ? (body.spans ?? []) : [];
    if (spans.length >= count) return spans;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`run ${runId} has ${spans.length} spans, not ${count}, after ${timeoutMs} ms`);
}
