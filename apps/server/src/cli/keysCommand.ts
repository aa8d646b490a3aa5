import { Command } from 'commander';
import { API_KEY_KINDS, PROJECT_ID_PATTERN, type ApiKeyKind } from '@telltale/semconv';
import { z } from 'zod';
import { parseApiKey } from '../auth/apiKey.js';
import { addAdminOptions, adminBackend, type AdminOptions } from './adminBackend.js';
import { formatTime } from './formatTime.js';
import { parseOptions } from './parseOptions.js';
import { renderTable } from './renderTable.js';

const CreateInput = z.object({
  project: z.string().regex(PROJECT_ID_PATTERN, 'a project id is 1–64 lowercase letters, digits and hyphens'),
  kind: z.enum(API_KEY_KINDS),
  name: z.string().max(256).optional(),
});
const ListInput = z.object({ project: CreateInput.shape.project });
const RevokeInput = z.object({
  keyId: z.string().regex(/^[0-9A-Za-z]{8,64}$/, 'a key id is letters and digits (the part after tt_<kind>_)'),
});

type Write = (text: string) => void;

const USAGE: Record<ApiKeyKind, string> = {
  ingest: [
    'Send it with every OTLP export, as the Authorization header:',
    '  OTEL_EXPORTER_OTLP_HEADERS="Authorization=Bearer%20<key>"',
    "  or in code: new OTLPTraceExporter({ url, headers: { Authorization: 'Bearer <key>' } }), or the Telltale SDK's apiKey option",
  ].join('\n'),
  read: [
    'Send it with every API request, as the Authorization header:',
    '  curl -H "Authorization: Bearer <key>" http://127.0.0.1:4318/api/v1/runs',
    '  TELLTALE_API_KEY=<key> telltale report',
  ].join('\n'),
};

/**
 * `telltale keys create|list|revoke`. `create` prints the key alone on stdout
 * (so `KEY=$(telltale keys create …)` works) and how to use it on stderr; the
 * key is never shown again, since only its secret's SHA-256 is stored.
 */
export function keysCommand(write: Write, writeHelp: Write): Command {
  const keys = new Command('keys').description(
    'API keys: ingest keys send OTLP, read keys call the API (used with --auth keys)',
  );

  addAdminOptions(keys.command('create').description('create a key and print it, once'))
    .requiredOption('--project <id>', 'the project the key belongs to')
    .requiredOption('--kind <kind>', `what the key may do: ${API_KEY_KINDS.join(' or ')}`)
    .option('--name <label>', 'a label to recognise it by, e.g. ci or checkout-agent')
    .action(async (raw: AdminOptions & { project: string; kind: string; name?: string }, command: Command) => {
      const input = parseOptions(CreateInput, { project: raw.project, kind: raw.kind, name: raw.name });
      const created = await adminBackend(raw, command).createKey({
        projectId: input.project,
        kind: input.kind,
        ...(input.name === undefined ? {} : { name: input.name }),
      });
      const stored = created.info;
      write(`${created.key}\n`);
      writeHelp(
        [
          `Created ${stored.kind} key ${stored.keyId} for project ${stored.projectId}. This is the only time it is shown: store it now.`,
          USAGE[stored.kind],
          raw.endpoint === undefined
            ? 'A server started with --auth keys accepts it at once when it shares this ClickHouse (--clickhouse-url); an embedded server loads keys when it starts (while it runs, create keys through it: --endpoint <url> --admin-key <key>).'
            : `${raw.endpoint} accepts it now; other servers sharing its ClickHouse within their key refresh (--auth-refresh-seconds).`,
          '',
        ].join('\n'),
      );
    });

  addAdminOptions(keys.command('list').description("list a project's keys (never their secrets)"))
    .requiredOption('--project <id>', 'the project')
    .option('--json', 'print JSON', false)
    .action(async (raw: AdminOptions & { project: string; json: boolean }, command: Command) => {
      const input = parseOptions(ListInput, { project: raw.project });
      const all = await adminBackend(raw, command).listKeys(input.project);
      if (raw.json) {
        write(`${JSON.stringify(all, null, 2)}\n`);
        return;
      }
      if (all.length === 0) {
        write(
          `project ${input.project} has no keys: create one with telltale keys create --project ${input.project} --kind ingest\n`,
        );
        return;
      }
      const rows = all.map((k) => [k.keyId, k.kind, k.name, formatTime(k.createdAtMs), formatTime(k.revokedAtMs)]);
      write(
        `${renderTable([{ header: 'key id' }, { header: 'kind' }, { header: 'name' }, { header: 'created' }, { header: 'revoked' }], rows)}\n`,
      );
    });

  addAdminOptions(keys.command('revoke <keyId>').description('revoke a key (its id, or the whole key)')).action(
    async (keyIdOrKey: string, raw: AdminOptions, command: Command) => {
      const input = parseOptions(RevokeInput, { keyId: parseApiKey(keyIdOrKey.trim())?.keyId ?? keyIdOrKey.trim() });
      const revoked = await adminBackend(raw, command).revokeKey(input.keyId);
      write(
        `revoked ${revoked.kind} key ${revoked.keyId} of project ${revoked.projectId} at ${formatTime(revoked.revokedAtMs)}\n`,
      );
      writeHelp(
        raw.endpoint === undefined
          ? 'Servers sharing this ClickHouse refuse it within their key refresh (--auth-refresh-seconds, 5 s by default).\n'
          : `${raw.endpoint} refuses it now; other servers sharing its ClickHouse within their key refresh (--auth-refresh-seconds).\n`,
      );
    },
  );

  return keys;
}
