import { Router, type Request } from 'express';
import type { Analytics, EffectivePrice } from '@telltale/analytics';
import { z } from 'zod';
import type { ApiRegistry } from './ApiRegistry.js';

const NoQuery = z.object({}).strict();
const ModelParams = z.object({ model: z.string().min(1).max(256).describe('model name as spans carry it (URL-encode a `/`)') });
const PerMTok = (what: string) => z.number().finite().min(0).max(1_000_000).describe(`USD per million ${what}`);
const PriceBody = z
  .object({
    inputPerMTok: PerMTok('input tokens'),
    cachedInputPerMTok: PerMTok('cached input tokens'),
    outputPerMTok: PerMTok('output tokens'),
    asOf: z.string().max(64).optional().describe('when the price was read (default: today, YYYY-MM-DD)'),
    source: z.string().max(256).default('api').describe('where the price comes from'),
  })
  .strict();

async function effectivePrice(analytics: Analytics, projectId: string, model: string): Promise<EffectivePrice | null> {
  return (await analytics.prices(projectId)).find((p) => p.model === model) ?? null;
}

/** `/prices`: the bundled per-model prices merged with the project's overrides, and the overrides themselves. */
export function pricesRouter(registry: ApiRegistry, analytics: Analytics, projectOf: (req: Request) => string): Router {
  const router = Router();
  registry.route(
    router,
    { method: 'get', path: '/prices', tag: 'cost', summary: 'Every model the project can price, bundled or overridden', query: NoQuery, response: '{ prices: EffectivePrice[] } with origin bundled | override' },
    async ({ req }) => ({ prices: await analytics.prices(projectOf(req)) }),
  );
  registry.route(
    router,
    {
      method: 'put',
      path: '/prices/:model',
      tag: 'cost',
      summary: "Sets the project's price of one model (replaces the bundled price)",
      query: NoQuery,
      params: ModelParams,
      body: PriceBody,
      response: '{ price: EffectivePrice } as now in effect',
    },
    async ({ params, body, req }) => {
      const projectId = projectOf(req);
      await analytics.setPrice(projectId, { model: params.model, ...body, asOf: body.asOf ?? new Date().toISOString().slice(0, 10) });
      return { price: await effectivePrice(analytics, projectId, params.model) };
    },
  );
  registry.route(
    router,
    {
      method: 'delete',
      path: '/prices/:model',
      tag: 'cost',
      summary: "Removes the project's override of one model; the bundled price, if any, applies again",
      query: NoQuery,
      params: ModelParams,
      response: '{ deleted: model, price: EffectivePrice | null } now in effect',
    },
    async ({ params, req }) => {
      const projectId = projectOf(req);
      await analytics.deletePrice(projectId, params.model);
      return { deleted: params.model, price: await effectivePrice(analytics, projectId, params.model) };
    },
  );
  return router;
}
