import { Router, type Request } from 'express';
import { TelltaleError, TelltaleErrorCode } from '@telltale/semconv';
import { MAX_RUN_CONTENT_SPAN_IDS, MAX_RUN_CONTENT_SPANS, type Store, type StoreRows } from '@telltale/store';
import { API_ROUTES, type ContentSide, type SpanContent } from '@telltale/api-contract';
import type { ApiRegistry } from './ApiRegistry.js';

/** JSON text as its value; anything else as the text. */
function parsed(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function sideView(half: StoreRows.ContentHalf): ContentSide {
  const side: ContentSide = {};
  if (half.messages !== undefined) side.messages = half.messages;
  if (half.toolArguments !== undefined) side.toolArguments = parsed(half.toolArguments);
  if (half.toolResult !== undefined) side.toolResult = parsed(half.toolResult);
  if (half.text !== undefined) side.text = half.text;
  return side;
}

/** A stored content row as the API answers it. */
export function spanContentView(c: StoreRows.StoredSpanContent): SpanContent {
  return {
    traceId: c.traceId,
    spanId: c.spanId,
    input: sideView(c.input),
    output: sideView(c.output),
    truncated: c.truncated,
    originalBytes: c.originalBytes,
    capture: c.capture,
    redactedStrings: c.redactions,
  };
}

/**
 * `/runs/:runId/spans/:spanId/content` and `/runs/:runId/content`: span
 * content, for one span or one run, never in lists; `/runs/:runId/content/spans`:
 * which of a run's spans have content (ids only). FORBIDDEN when the
 * caller's project does not let read keys read content.
 */
export function contentRouter(
  registry: ApiRegistry,
  store: Store,
  projectOf: (req: Request) => string,
  contentReadable: (projectId: string) => boolean,
): Router {
  const router = Router();
  const readableProject = (req: Request): string => {
    const projectId = projectOf(req);
    if (!contentReadable(projectId))
      throw new TelltaleError({
        code: TelltaleErrorCode.FORBIDDEN,
        message: `project ${projectId} does not let read keys read span content (an admin can allow it: contentReadable)`,
      });
    return projectId;
  };

  registry.route(
    router,
    {
      ...API_ROUTES['get /runs/:runId/spans/:spanId/content'],
      tag: 'runs',
      summary: "One span's content: the messages, tool arguments and results it carried",
      returns:
        '{ content: { input, output, truncated, originalBytes, capture, redactedStrings } }; 404 when none is kept',
    },
    async ({ params, req }) => {
      const [found] = await store.content.get(readableProject(req), params.runId, params.spanId.toLowerCase());
      if (found === undefined)
        throw new TelltaleError({
          code: TelltaleErrorCode.NOT_FOUND,
          message: `no content kept for span ${params.spanId} of run ${params.runId} (not captured, dropped, or expired)`,
        });
      return { content: spanContentView(found) };
    },
  );

  registry.route(
    router,
    {
      ...API_ROUTES['get /runs/:runId/content'],
      tag: 'runs',
      summary: "The content of a run's spans (the first spans with content, in start order)",
      returns: '{ spans: content[], limit }',
    },
    async ({ params, req }) => {
      const found = await store.content.get(readableProject(req), params.runId);
      return { spans: found.map(spanContentView), limit: MAX_RUN_CONTENT_SPANS };
    },
  );
  registry.route(
    router,
    {
      ...API_ROUTES['get /runs/:runId/content/spans'],
      tag: 'runs',
      summary: 'Which spans of a run have content kept (their ids), so a client asks only for those',
      returns: '{ spanIds, limit }',
    },
    async ({ params, req }) => ({
      spanIds: await store.content.spanIds(readableProject(req), params.runId),
      limit: MAX_RUN_CONTENT_SPAN_IDS,
    }),
  );
  return router;
}
