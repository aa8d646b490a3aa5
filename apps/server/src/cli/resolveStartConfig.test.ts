import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Command } from 'commander';
import { afterAll, describe, expect, it } from 'vitest';
import { StartConfigSchema, type StartConfig } from '../config.js';
import { CliError } from './CliError.js';
import { resolveStartConfig } from './resolveStartConfig.js';
import { addStartOptions, envVarOf } from './startOptions.js';

interface Case {
  /** Other variables the flag needs (a cluster needs a remote URL). */
  alsoEnv?: Record<string, string>;
  /** The variable's value, and what the config then holds. */
  env: string;
  fromEnv: Partial<StartConfig>;
  /** The flag with another value (it must win over the variable), and what the config then holds. */
  flag: string[];
  fromFlag: Partial<StartConfig>;
}

/** A dashboard build to point `--web-dir` at: a directory with an index.html. */
function webBuild(name: string): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'telltale-web-')), name);
  mkdirSync(dir);
  writeFileSync(join(dir, 'index.html'), '<!doctype html>');
  return dir;
}
const WEB_A = webBuild('a');
const WEB_B = webBuild('b');
afterAll(() => {
  for (const dir of [WEB_A, WEB_B]) rmSync(dirname(dir), { recursive: true, force: true });
});

/** One case per `telltale start` flag: a flag without a case fails the test below. */
const CASES: Record<string, Case> = {
  '--role': { env: 'ingest', fromEnv: { role: 'ingest' }, flag: ['--role', 'worker'], fromFlag: { role: 'worker' } },
  '--port': { env: '5000', fromEnv: { port: 5000 }, flag: ['--port', '6000'], fromFlag: { port: 6000 } },
  '--grpc-port': { env: 'off', fromEnv: { grpcPort: 'off' }, flag: ['--grpc-port', '0'], fromFlag: { grpcPort: 0 } },
  '--host': { env: '0.0.0.0', fromEnv: { host: '0.0.0.0' }, flag: ['--host', '::1'], fromFlag: { host: '::1' } },
  '--auth': { env: 'keys', fromEnv: { auth: 'keys' }, flag: ['--auth', 'none'], fromFlag: { auth: 'none' } },
  '--admin-key': {
    env: 'admin-key-from-the-environment-0001',
    fromEnv: { adminKey: 'admin-key-from-the-environment-0001' },
    flag: ['--admin-key', 'admin-key-from-the-command-line-02'],
    fromFlag: { adminKey: 'admin-key-from-the-command-line-02' },
  },
  '--auth-refresh-seconds': {
    env: '0.5',
    fromEnv: { authRefreshSeconds: 0.5 },
    flag: ['--auth-refresh-seconds', '60'],
    fromFlag: { authRefreshSeconds: 60 },
  },
  '--data-dir': {
    env: '/var/lib/telltale',
    fromEnv: { dataDir: '/var/lib/telltale' },
    flag: ['--data-dir', '/srv/t'],
    fromFlag: { dataDir: '/srv/t' },
  },
  '--clickhouse-url': {
    env: 'http://ch:8123',
    fromEnv: { clickhouseUrl: 'http://ch:8123' },
    flag: ['--clickhouse-url', 'https://ch.example:8443'],
    fromFlag: { clickhouseUrl: 'https://ch.example:8443' },
  },
  '--clickhouse-user': {
    env: 'reader',
    fromEnv: { clickhouseUser: 'reader' },
    flag: ['--clickhouse-user', 'writer'],
    fromFlag: { clickhouseUser: 'writer' },
  },
  '--clickhouse-password': {
    env: 'pw-from-env',
    fromEnv: { clickhousePassword: 'pw-from-env' },
    flag: ['--clickhouse-password', 'pw-from-flag'],
    fromFlag: { clickhousePassword: 'pw-from-flag' },
  },
  '--clickhouse-cluster': {
    env: 'telltale',
    fromEnv: { clickhouseCluster: 'telltale' },
    flag: ['--clickhouse-cluster', 'prod_2x2', '--clickhouse-url', 'http://ch:8123'],
    fromFlag: { clickhouseCluster: 'prod_2x2' },
    alsoEnv: { TELLTALE_CLICKHOUSE_URL: 'http://ch:8123' },
  },
  '--retention-days': {
    env: '30',
    fromEnv: { retentionDays: 30 },
    flag: ['--retention-days', '7'],
    fromFlag: { retentionDays: 7 },
  },
  '--content-retention-days': {
    env: '3',
    fromEnv: { contentRetentionDays: 3 },
    flag: ['--content-retention-days', '2'],
    fromFlag: { contentRetentionDays: 2 },
  },
  '--content-max-bytes': {
    env: '2048',
    fromEnv: { contentMaxBytes: 2048 },
    flag: ['--content-max-bytes', '4096'],
    fromFlag: { contentMaxBytes: 4096 },
  },
  '--max-body-bytes': {
    env: '2048',
    fromEnv: { maxBodyBytes: 2048 },
    flag: ['--max-body-bytes', '4096'],
    fromFlag: { maxBodyBytes: 4096 },
  },
  '--request-timeout-ms': {
    env: '5000',
    fromEnv: { requestTimeoutMs: 5000 },
    flag: ['--request-timeout-ms', '7000'],
    fromFlag: { requestTimeoutMs: 7000 },
  },
  '--spool-dir': {
    env: '/spool/a',
    fromEnv: { spoolDir: '/spool/a' },
    flag: ['--spool-dir', '/spool/b'],
    fromFlag: { spoolDir: '/spool/b' },
  },
  '--spool-max-bytes': {
    env: '2097152',
    fromEnv: { spoolMaxBytes: 2_097_152 },
    flag: ['--spool-max-bytes', '4194304'],
    fromFlag: { spoolMaxBytes: 4_194_304 },
  },
  '--spool-segment-bytes': {
    env: '8192',
    fromEnv: { spoolSegmentBytes: 8192 },
    flag: ['--spool-segment-bytes', '65536'],
    fromFlag: { spoolSegmentBytes: 65_536 },
  },
  '--ingest-workers': {
    env: '0',
    fromEnv: { ingestWorkers: 0 },
    flag: ['--ingest-workers', '3'],
    fromFlag: { ingestWorkers: 3 },
  },
  '--drain-batch-spans': {
    env: '128000',
    fromEnv: { drainBatchSpans: 128_000 },
    flag: ['--drain-batch-spans', '16000'],
    fromFlag: { drainBatchSpans: 16_000 },
  },
  '--engine-nice': {
    env: '0',
    fromEnv: { engineNice: 0 },
    flag: ['--engine-nice', '19'],
    fromFlag: { engineNice: 19 },
  },
  '--memory-trim-ms': {
    env: '0',
    fromEnv: { memoryTrimMs: 0 },
    flag: ['--memory-trim-ms', '250'],
    fromFlag: { memoryTrimMs: 250 },
  },
  '--orphan-quiet-seconds': {
    env: '5',
    fromEnv: { orphanQuietSeconds: 5 },
    flag: ['--orphan-quiet-seconds', '0.5'],
    fromFlag: { orphanQuietSeconds: 0.5 },
  },
  '--web-dir': {
    env: WEB_A,
    fromEnv: { webDir: WEB_A },
    flag: ['--web-dir', WEB_B],
    fromFlag: { webDir: WEB_B },
  },
  // a switch: the variable takes true/false/1/0; the flag (on) beats a variable saying off
  '--demo': { env: '1', fromEnv: { demo: true }, flag: ['--demo'], fromFlag: { demo: true } },
  '--public-url': {
    env: 'https://tt.example',
    fromEnv: { publicUrl: 'https://tt.example' },
    flag: ['--public-url', 'http://tt.local'],
    fromFlag: { publicUrl: 'http://tt.local' },
  },
  '--alerts-allow-private': {
    env: '10.0.0.0/8, 127.0.0.0/8',
    fromEnv: { alertsAllowPrivate: ['10.0.0.0/8', '127.0.0.0/8'] },
    flag: ['--alerts-allow-private', '192.168.0.0/16'],
    fromFlag: { alertsAllowPrivate: ['192.168.0.0/16'] },
  },
  '--alerts-retry-base-ms': {
    env: '500',
    fromEnv: { alertsRetryBaseMs: 500 },
    flag: ['--alerts-retry-base-ms', '900'],
    fromFlag: { alertsRetryBaseMs: 900 },
  },
  '--metrics-port': {
    env: '9464',
    fromEnv: { metricsPort: 9464 },
    flag: ['--metrics-port', '9465'],
    fromFlag: { metricsPort: 9465 },
  },
  '--metrics-token': {
    env: 'metrics-token-from-env-01',
    fromEnv: { metricsToken: 'metrics-token-from-env-01' },
    flag: ['--metrics-token', 'metrics-token-from-flag-2'],
    fromFlag: { metricsToken: 'metrics-token-from-flag-2' },
  },
  '--log-level': {
    env: 'debug',
    fromEnv: { logLevel: 'debug' },
    flag: ['--log-level', 'warn'],
    fromFlag: { logLevel: 'warn' },
  },
};

const startFlags = (): string[] =>
  addStartOptions(new Command('start')).options.flatMap((o) => (o.long === undefined ? [] : [o.long]));

const failure = (argv: string[], env: Record<string, string> = {}): CliError => {
  try {
    resolveStartConfig(argv, env);
  } catch (err) {
    if (err instanceof CliError) return err;
    throw err;
  }
  throw new Error(`no error for ${argv.join(' ')} ${JSON.stringify(env)}`);
};

describe('resolveStartConfig: flags, TELLTALE_* variables, defaults', () => {
  it('has a case for every start flag, and no case for a flag that does not exist', () => {
    expect(Object.keys(CASES).sort()).toEqual(startFlags().sort());
  });

  const defaults = resolveStartConfig([], {});

  it('with nothing given, equals the schema defaults', () => {
    expect(defaults).toEqual(StartConfigSchema.parse({ demo: false }));
    expect(defaults).toMatchObject({
      port: 4318,
      grpcPort: 4317,
      host: '127.0.0.1',
      logLevel: 'info',
      demo: false,
      alertsAllowPrivate: [],
    });
  });

  for (const [flag, c] of Object.entries(CASES)) {
    const variable = envVarOf(flag);
    it(`${variable} sets ${flag}, and the flag beats it`, () => {
      const key = Object.keys(c.fromEnv)[0] as keyof StartConfig;
      // the case proves something: the variable's value is not the default
      expect(defaults[key]).not.toEqual(c.fromEnv[key]);
      expect(resolveStartConfig([], { ...c.alsoEnv, [variable]: c.env })).toMatchObject(c.fromEnv);
      const other = flag === '--demo' ? '0' : c.env;
      expect(resolveStartConfig(c.flag, { [variable]: other })).toMatchObject(c.fromFlag);
    });
  }

  it('derives the variable from the long flag', () => {
    expect(envVarOf('--grpc-port')).toBe('TELLTALE_GRPC_PORT');
    expect(envVarOf('--clickhouse-url')).toBe('TELLTALE_CLICKHOUSE_URL');
    expect(envVarOf('--metrics-token')).toBe('TELLTALE_METRICS_TOKEN');
  });

  it('reads booleans as true/false/1/0 in any case; an empty variable counts as unset', () => {
    expect(resolveStartConfig([], { TELLTALE_DEMO: 'TRUE' }).demo).toBe(true);
    expect(resolveStartConfig([], { TELLTALE_DEMO: 'false' }).demo).toBe(false);
    expect(resolveStartConfig([], { TELLTALE_DEMO: '0' }).demo).toBe(false);
    expect(resolveStartConfig([], { TELLTALE_PORT: '', TELLTALE_LOG_LEVEL: '  ' })).toMatchObject({
      port: 4318,
      logLevel: 'info',
    });
  });

  it('reads the environment it is given, not process.env', () => {
    process.env.TELLTALE_PORT = '1234';
    try {
      expect(resolveStartConfig([], {}).port).toBe(4318);
    } finally {
      delete process.env.TELLTALE_PORT;
    }
  });
});

describe('resolveStartConfig: a bad value is one line naming flag and variable', () => {
  const cases: Array<[string[], Record<string, string>, string]> = [
    [['--port', 'abc'], {}, '--port (TELLTALE_PORT) must be an integer from 0 to 65535, got "abc"'],
    [['--engine-nice', '20'], {}, '--engine-nice (TELLTALE_ENGINE_NICE) must be an integer from 0 to 19, got "20"'],
    [
      ['--drain-batch-spans', '500'],
      {},
      '--drain-batch-spans (TELLTALE_DRAIN_BATCH_SPANS) must be an integer from 1000 to 1000000, got "500"',
    ],
    [
      ['--memory-trim-ms', '0.5'],
      {},
      '--memory-trim-ms (TELLTALE_MEMORY_TRIM_MS) must be an integer from 0 to 3600000, got "0.5"',
    ],
    [[], { TELLTALE_PORT: '99999' }, '--port (TELLTALE_PORT) must be an integer from 0 to 65535, got "99999"'],
    [
      ['--retention-days', '0'],
      {},
      '--retention-days (TELLTALE_RETENTION_DAYS) must be an integer from 1 to 3650, got "0"',
    ],
    [
      ['--clickhouse-url', 'ftp://x'],
      {},
      '--clickhouse-url (TELLTALE_CLICKHOUSE_URL) must be a URL starting http:// or https://, got "ftp://x"',
    ],
    [['--auth', 'maybe'], {}, '--auth (TELLTALE_AUTH) must be one of keys, none, got "maybe"'],
    [
      [],
      { TELLTALE_GRPC_PORT: 'on' },
      '--grpc-port (TELLTALE_GRPC_PORT) must be off or an integer from 0 to 65535, got "on"',
    ],
    [[], { TELLTALE_DEMO: 'yes please' }, '--demo (TELLTALE_DEMO) must be true, false, 1 or 0, got "yes please"'],
    [
      ['--max-body-bytes', '10'],
      {},
      '--max-body-bytes (TELLTALE_MAX_BODY_BYTES) must be an integer of at least 1024, got "10"',
    ],
    [
      ['--auth-refresh-seconds', '0'],
      {},
      '--auth-refresh-seconds (TELLTALE_AUTH_REFRESH_SECONDS) must be a number from 0.1 to 3600, got "0"',
    ],
    [
      ['--log-level', 'loud'],
      {},
      '--log-level (TELLTALE_LOG_LEVEL) must be one of fatal, error, warn, info, debug, trace, silent, got "loud"',
    ],
    [
      ['--alerts-allow-private', '10.0.0.0/33'],
      {},
      '--alerts-allow-private (TELLTALE_ALERTS_ALLOW_PRIVATE) must be comma-separated CIDR ranges such as 10.0.0.0/8,127.0.0.0/8, got "10.0.0.0/33"',
    ],
    [
      ['--clickhouse-cluster', 'telltale'],
      {},
      '--clickhouse-cluster (TELLTALE_CLICKHOUSE_CLUSTER) needs a remote ClickHouse: set --clickhouse-url (TELLTALE_CLICKHOUSE_URL) too (the embedded engine is a single node)',
    ],
    [
      ['--clickhouse-cluster', 'tell-tale', '--clickhouse-url', 'http://ch:8123'],
      {},
      '--clickhouse-cluster (TELLTALE_CLICKHOUSE_CLUSTER) must be a cluster name of letters, digits and _ (as in remote_servers), got "tell-tale"',
    ],
    // a secret's value is never echoed; its length is what it must fix
    [
      ['--auth', 'keys', '--admin-key', 'short-admin-key'],
      {},
      '--admin-key (TELLTALE_ADMIN_KEY) must be text of at least 24 characters',
    ],
    [
      ['--auth', 'keys'],
      { TELLTALE_METRICS_TOKEN: 'short' },
      '--metrics-token (TELLTALE_METRICS_TOKEN) must be text of at least 16 characters',
    ],
    [
      ['--web-dir', '/nonexistent/web'],
      {},
      `--web-dir (TELLTALE_WEB_DIR) must be a directory holding the dashboard's build (its index.html), got "/nonexistent/web"`,
    ],
    // credentials in a bad URL are not echoed
    [
      ['--clickhouse-url', 'ftp://admin:hunter22@x'],
      {},
      '--clickhouse-url (TELLTALE_CLICKHOUSE_URL) must be a URL starting http:// or https://, got "ftp://[redacted]@x"',
    ],
  ];
  for (const [argv, env, message] of cases) {
    it(`${argv.join(' ')}${JSON.stringify(env)}`, () => {
      const err = failure(argv, env);
      expect(err.message).toBe(message);
      expect(err.exitCode).toBe(2);
    });
  }

  it('an unknown flag is a usage error (exit 2)', () => {
    const err = failure(['--prot', '1']);
    expect(err.message).toContain("unknown option '--prot'");
    expect(err.exitCode).toBe(2);
  });
});
