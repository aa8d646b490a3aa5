import express, { type Request, type Response, type Router } from 'express';
import type { HttpMethod, RouteContract } from '@telltale/api-contract';
import { z } from 'zod';
import { parseQuery } from './analyticsParams.js';
import { parseOrThrow } from './errors.js';

export type { HttpMethod };

const NoParams = z.object({}).strict();

/**
 * A route of the contract (its query, params, body and response schemas) and
 * what the OpenAPI document says about it. The response schema is required:
 * every route documents what it answers.
 */
export interface RouteSpec<
  Q extends z.ZodObject = z.ZodObject,
  P extends z.ZodObject = z.ZodObject,
  B extends z.ZodType = z.ZodType,
> extends RouteContract<Q, P, B> {
  tag: string;
  summary: string;
  /** What the 2xx answer means, in words (the `response` schema gives its shape). */
  returns: string;
  /** The success status (default 200; 201 for a route that creates). */
  status?: 200 | 201;
  /** `admin`: the route takes the admin key (`--admin-key`), not a read key. */
  security?: 'admin';
}

export interface RouteInput<Q extends z.ZodObject, P extends z.ZodObject, B extends z.ZodType> {
  query: z.output<Q>;
  params: z.output<P>;
  body: z.output<B>;
  req: Request;
  res: Response;
}

/**
 * Registers express routes together with their zod schemas, so validation
 * and the OpenAPI document come from the same source.
 */
export class ApiRegistry {
  private readonly specs: RouteSpec[] = [];

  get routes(): readonly RouteSpec[] {
    return this.specs;
  }

  route<Q extends z.ZodObject, P extends z.ZodObject = typeof NoParams, B extends z.ZodType = z.ZodUndefined>(
    router: Router,
    spec: RouteSpec<Q, P, B>,
    handle: (input: RouteInput<Q, P, B>) => unknown,
  ): void {
    // invariant: routes are registered once, at startup (a plain Error, never a user's error)
    if (this.specs.some((s) => s.method === spec.method && s.path === spec.path))
      throw new Error(`route ${spec.method} ${spec.path} registered twice`);
    this.specs.push(spec);
    const handler = async (req: Request, res: Response): Promise<void> => {
      const query = parseQuery(spec.query, req.query);
      const params = parseOrThrow(spec.params ?? NoParams, req.params, 'path parameter') as z.output<P>;
      const body = // no body is an empty one: a route whose fields all have defaults needs none
        (spec.body === undefined ? undefined : parseOrThrow(spec.body, req.body ?? {}, 'request body')) as z.output<B>;
      const result = await handle({ query, params, body, req, res });
      if (!res.headersSent) res.json(result);
    };
    if (spec.body === undefined) router[spec.method](spec.path, handler);
    else router[spec.method](spec.path, express.json({ limit: '256kb' }), handler);
  }
}
