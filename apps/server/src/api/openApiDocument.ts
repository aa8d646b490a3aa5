import { z } from 'zod';
import { ATTR_KEY_PATTERN, ATTR_PREFIX, MAX_ATTR_FILTERS } from '@telltale/api-contract';
import type { RouteSpec } from './ApiRegistry.js';
import { API_BASE } from './apiRouteOf.js';

type JsonSchema = Record<string, unknown>;

/** `/runs/:runId` → `/runs/{runId}`. */
export function toOpenApiPath(expressPath: string): string {
  return expressPath.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

/** The wire form (`io: 'input'`): what a request carries, or what a response holds before a client parses it. */
function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, {
    io: 'input',
    target: 'draft-2020-12',
    unrepresentable: 'any',
  }) as JsonSchema;
  return rest;
}

function isRequired(schema: z.ZodType): boolean {
  return !schema.safeParse(undefined).success;
}

function parametersOf(spec: RouteSpec): JsonSchema[] {
  const out: JsonSchema[] = [];
  for (const [name, schema] of Object.entries(spec.params?.shape ?? {}) as Array<[string, z.ZodType]>) {
    out.push({ name, in: 'path', required: true, schema: jsonSchemaOf(schema) });
  }
  for (const [name, schema] of Object.entries(spec.query.shape) as Array<[string, z.ZodType]>) {
    const json = jsonSchemaOf(schema);
    if (name === 'attr') {
      const valueSchema = (json.additionalProperties as JsonSchema | undefined) ?? { type: 'string' };
      out.push({
        name: `${ATTR_PREFIX}{key}`,
        in: 'query',
        required: false,
        description: `${typeof json.description === 'string' ? json.description : ''}. The key matches ${ATTR_KEY_PATTERN.source}; at most ${MAX_ATTR_FILTERS} keys; each key once.`,
        schema: valueSchema,
        'x-telltale-key-pattern': ATTR_KEY_PATTERN.source,
      });
      continue;
    }
    const { description, ...rest } = json;
    out.push({
      name,
      in: 'query',
      required: isRequired(schema),
      ...(description === undefined ? {} : { description }),
      schema: rest,
    });
  }
  return out;
}

const ERROR_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: { code: { type: 'string' }, message: { type: 'string' } },
    },
  },
};

/** An OpenAPI 3.1 document for the registered routes: parameters, bodies and answers from their contract's zod schemas. */
export function openApiDocument(specs: readonly RouteSpec[], info: { title: string; version: string }): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const spec of specs) {
    const path = toOpenApiPath(spec.path);
    const operation: JsonSchema = {
      operationId: `${spec.method}${path.replace(/[{}]/g, '').replace(/(^|[/_-])([a-z])/g, (_m, _s, c: string) => c.toUpperCase())}`,
      summary: spec.summary,
      tags: [spec.tag],
      parameters: parametersOf(spec),
      responses: {
        [String(spec.status ?? 200)]: {
          description: spec.returns,
          content: { 'application/json': { schema: jsonSchemaOf(spec.response) } },
        },
        '400': {
          description: 'invalid parameters',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        },
        '401': {
          description: 'missing, invalid or revoked API key (--auth keys)',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        },
        '403': {
          description:
            spec.security === 'admin'
              ? 'the admin API is off (no --admin-key), or a read or ingest key was sent'
              : 'an ingest key: the API takes a read key',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        },
      },
    };
    // the admin key when the server runs with --auth keys; none in open mode
    if (spec.security === 'admin') operation.security = [{ adminKey: [] }, {}];
    if (spec.body !== undefined) {
      operation.requestBody = { required: true, content: { 'application/json': { schema: jsonSchemaOf(spec.body) } } };
    }
    (paths[path] ??= {})[spec.method] = operation;
  }
  return {
    openapi: '3.1.0',
    info: { ...info, description: 'The Telltale JSON API. Errors are `{ "error": { "code", "message" } }`.' },
    servers: [{ url: API_BASE }],
    paths,
    // a read key when the server runs with --auth keys; none in open mode
    security: [{ readKey: [] }, {}],
    components: {
      schemas: { Error: ERROR_SCHEMA },
      securitySchemes: {
        readKey: {
          type: 'http',
          scheme: 'bearer',
          description: 'A read key (tt_read_…): telltale keys create --project <id> --kind read',
        },
        adminKey: {
          type: 'http',
          scheme: 'bearer',
          description: 'The admin key the server was started with (telltale start --auth keys --admin-key <key>)',
        },
      },
    },
  };
}
