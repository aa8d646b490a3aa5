import { Router, type Request } from 'express';
import type { Analytics, EffectivePrice } from '@telltale/analytics';
import { API_ROUTES } from '@telltale/api-contract';
import type { ApiRegistry } from './ApiRegistry.js';

async function effectivePrice(analytics: Analytics, projectId: string, model: string): Promise<EffectivePrice | null> {
  return (await analytics.prices(projectId)).find((p) => p.model === model) ?? null;
}

/** `/prices`: the bundled per-model prices merged with the project's overrides, and the overrides themselves. */
export function pricesRouter(registry: ApiRegistry, analytics: Analytics, projectOf: (req: Request) => string): Router {
  const router = Router();
  registry.route(
    router,
    {
      ...API_ROUTES['get /prices'],
      tag: 'cost',
      summary: 'Every model the project can price, bundled or overridden',
      returns: '{ prices: EffectivePrice[] } with origin bundled | override',
    },
    async ({ req }) => ({ prices: await analytics.prices(projectOf(req)) }),
  );
  registry.route(
    router,
    {
      ...API_ROUTES['put /prices/:model'],
      tag: 'cost',
      summary: "Sets the project's price of one model (replaces the bundled price)",
      returns: '{ price: EffectivePrice } as now in effect',
    },
    async ({ params, body, req }) => {
      const projectId = projectOf(req);
      await analytics.setPrice(projectId, {
        model: params.model,
        ...body,
        asOf: body.asOf ?? new Date().toISOString().slice(0, 10),
      });
      return { price: await effectivePrice(analytics, projectId, params.model) };
    },
  );
  registry.route(
    router,
    {
      ...API_ROUTES['delete /prices/:model'],
      tag: 'cost',
      summary: "Removes the project's override of one model; the bundled price, if any, applies again",
      returns: '{ deleted: model, price: EffectivePrice | null } now in effect',
    },
    async ({ params, req }) => {
      const projectId = projectOf(req);
      await analytics.deletePrice(projectId, params.model);
      return { deleted: params.model, price: await effectivePrice(analytics, projectId, params.model) };
    },
  );
  return router;
}
