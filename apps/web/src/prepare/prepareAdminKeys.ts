import type { ApiKey, Project } from '@telltale/api-contract';
import { formatEpochMs } from './prepareAlertTime';

/** One key as the settings page lists it. */
export interface KeyRow {
  keyId: string;
  kind: ApiKey['kind'];
  /** What the key may do, for people. */
  kindLabel: string;
  name: string;
  /** How the key begins (`tt_read_<id>_…`), to recognise it. */
  hint: string;
  created: string;
  revoked: boolean;
  status: string;
}

/** One project as the settings page lists it. */
export interface ProjectRow {
  id: string;
  name: string;
  quota: string;
  created: string;
}

const KIND_LABEL: Record<ApiKey['kind'], string> = { ingest: 'Ingest (sends OTLP)', read: 'Read (calls the API)' };

/** Working keys first (newest first), then revoked ones (latest revocation first). */
export function prepareKeyRows(keys: readonly ApiKey[], timeZone?: string): KeyRow[] {
  const order = (k: ApiKey): [number, number] => (k.revokedAtMs === null ? [0, -k.createdAtMs] : [1, -k.revokedAtMs]);
  return [...keys]
    .sort((a, b) => {
      const [ga, ta] = order(a);
      const [gb, tb] = order(b);
      return ga - gb || ta - tb || a.keyId.localeCompare(b.keyId);
    })
    .map((k) => ({
      keyId: k.keyId,
      kind: k.kind,
      kindLabel: KIND_LABEL[k.kind],
      name: k.name === '' ? '–' : k.name,
      hint: `${k.prefix}…`,
      created: formatEpochMs(k.createdAtMs, timeZone),
      revoked: k.revokedAtMs !== null,
      status: k.revokedAtMs === null ? 'Active' : `Revoked ${formatEpochMs(k.revokedAtMs, timeZone)}`,
    }));
}

/** Projects by id, with their quota in words. */
export function prepareProjectRows(projects: readonly Project[], timeZone?: string): ProjectRow[] {
  return [...projects]
    .sort((a, b) => a.id.localeCompare(b.id))
    .map((p) => ({
      id: p.id,
      name: p.name,
      quota:
        p.maxSpansPerSecond === null
          ? 'no ingest quota'
          : `at most ${p.maxSpansPerSecond.toLocaleString('en-US')} spans/s`,
      created: formatEpochMs(p.createdAtMs, timeZone),
    }));
}

/** The project to show: the one asked for when it exists, else the first. */
export function selectProject(projects: readonly ProjectRow[], wanted: string | null | undefined): string | undefined {
  if (wanted !== null && wanted !== undefined && projects.some((p) => p.id === wanted)) return wanted;
  return projects[0]?.id;
}

/** How to use a key just created, by kind (the page shows it beside the secret). */
export function keyUsage(kind: ApiKey['kind'], origin: string): string {
  return kind === 'ingest'
    ? `OTEL_EXPORTER_OTLP_HEADERS="Authorization=Bearer%20<key>"  (OTLP to ${origin}/v1/traces)`
    : `curl -H "Authorization: Bearer <key>" ${origin}/api/v1/runs`;
}
