import { describe, expect, it } from 'vitest';
import type { ApiKey } from '@telltale/api-contract';
import { keyUsage, prepareKeyRows, prepareProjectRows, selectProject } from './prepareAdminKeys';

const MS0 = 1_700_000_000_000;
const key = (over: Partial<ApiKey>): ApiKey => ({
  keyId: 'K1',
  projectId: 'p',
  kind: 'read',
  name: 'ci',
  prefix: 'tt_read_K1_',
  createdAtMs: MS0,
  revokedAtMs: null,
  ...over,
});

describe('prepareKeyRows', () => {
  it('lists working keys newest first, then revoked ones, with a hint and never more of the key', () => {
    const rows = prepareKeyRows(
      [
        key({ keyId: 'OLD', createdAtMs: MS0, prefix: 'tt_read_OLD_' }),
        key({
          keyId: 'GONE',
          kind: 'ingest',
          name: '',
          createdAtMs: MS0 + 5_000,
          revokedAtMs: MS0 + 60_000,
          prefix: 'tt_ingest_GONE_',
        }),
        key({ keyId: 'NEW', createdAtMs: MS0 + 10_000, prefix: 'tt_read_NEW_' }),
      ],
      'UTC',
    );
    expect(rows.map((r) => [r.keyId, r.revoked, r.status, r.name, r.hint])).toEqual([
      ['NEW', false, 'Active', 'ci', 'tt_read_NEW_…'],
      ['OLD', false, 'Active', 'ci', 'tt_read_OLD_…'],
      ['GONE', true, 'Revoked 2023-11-14 22:14:20', '–', 'tt_ingest_GONE_…'],
    ]);
    expect(rows[2]!.kindLabel).toBe('Ingest (sends OTLP)');
    expect(rows[0]!.created).toBe('2023-11-14 22:13:30');
  });
});

const CONTENT = { contentStored: true, contentReadable: false, contentDroppedSpans: 0 };

describe('prepareProjectRows and selectProject', () => {
  const rows = prepareProjectRows(
    [
      { id: 'shop', name: 'The shop', maxSpansPerSecond: 12_500, createdAtMs: MS0, ...CONTENT },
      { id: 'api', name: 'api', maxSpansPerSecond: null, createdAtMs: MS0, ...CONTENT },
    ],
    'UTC',
  );

  it('orders by id and says the quota in words', () => {
    expect(rows.map((r) => [r.id, r.quota])).toEqual([
      ['api', 'no ingest quota'],
      ['shop', 'at most 12,500 spans/s'],
    ]);
  });

  it('selects the wanted project when it exists, else the first, else none', () => {
    expect(selectProject(rows, 'shop')).toBe('shop');
    expect(selectProject(rows, 'ghost')).toBe('api');
    expect(selectProject(rows, null)).toBe('api');
    expect(selectProject([], 'shop')).toBeUndefined();
  });
});

describe('keyUsage', () => {
  it('tells how each kind is sent', () => {
    expect(keyUsage('ingest', 'http://h:1')).toContain('OTEL_EXPORTER_OTLP_HEADERS="Authorization=Bearer%20<key>"');
    expect(keyUsage('read', 'http://h:1')).toBe('curl -H "Authorization: Bearer <key>" http://h:1/api/v1/runs');
  });
});
