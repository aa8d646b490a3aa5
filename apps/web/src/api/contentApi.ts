import type { z } from 'zod';
import type { SpanContent } from '@telltale/api-contract';
import {
  runContentResponseSchema,
  runContentSpansResponseSchema,
  spanContentResponseSchema,
} from '@telltale/api-contract';
import type { RequestOptions } from './getJson';
import { getJson } from './getJson';
import { runUrl } from './runsApi';

export type RunContent = z.output<typeof runContentResponseSchema>;
export type RunContentSpans = z.output<typeof runContentSpansResponseSchema>;

/** `GET /api/v1/runs/:runId/spans/:spanId/content`: what one step was given and produced. */
export function spanContentUrl(runId: string, spanId: string): string {
  return `${runUrl(runId)}/spans/${encodeURIComponent(spanId)}/content`;
}

/** `GET /api/v1/runs/:runId/content`: the content of the run's spans (its first spans, up to the server's limit). */
export function runContentUrl(runId: string): string {
  return `${runUrl(runId)}/content`;
}

/** One span's content; an `ApiError` with status 404 when none was kept, 403 when the project hides it. */
export async function fetchSpanContent(runId: string, spanId: string, options?: RequestOptions): Promise<SpanContent> {
  return (await getJson(spanContentUrl(runId, spanId), spanContentResponseSchema, options)).content;
}

export function fetchRunContent(runId: string, options?: RequestOptions): Promise<RunContent> {
  return getJson(runContentUrl(runId), runContentResponseSchema, options);
}

/** `GET /api/v1/runs/:runId/content/spans`: which spans of the run have content kept. */
export function runContentSpansUrl(runId: string): string {
  return `${runUrl(runId)}/content/spans`;
}

export function fetchRunContentSpans(runId: string, options?: RequestOptions): Promise<RunContentSpans> {
  return getJson(runContentSpansUrl(runId), runContentSpansResponseSchema, options);
}
