import type { Command, Option } from 'commander';

/** Every `telltale start` flag has a variable: `--grpc-port` → `TELLTALE_GRPC_PORT`. */
export function envVarOf(long: string): string {
  return `TELLTALE_${long.replace(/^--/, '').replace(/-/g, '_').toUpperCase()}`;
}

/**
 * The options of `telltale start`, in one place: the CLI, resolveStartConfig
 * and the tests (docs/configuration.md's table, one env case per flag) all
 * read this list. Values are checked by StartConfigSchema, not here, so a bad
 * one from a flag or a variable answers the same one line.
 */
export function addStartOptions(command: Command): Command {
  return command
    .option(
      '--role <role>',
      'all: everything in one process; ingest, query or worker: one part, against a shared ClickHouse',
      'all',
    )
    .option('-p, --port <port>', 'port for OTLP/HTTP, the API and the dashboard', '4318')
    .option('--grpc-port <port>', "port for OTLP/gRPC (0: any free port; 'off': no gRPC receiver)", '4317')
    .option('--host <host>', 'address to bind (other than loopback only with --auth keys)', '127.0.0.1')
    .option(
      '--auth <mode>',
      'keys: every request needs an API key (required beyond loopback); none: open, one project (default on loopback)',
    )
    .option(
      '--admin-key <key>',
      'with --auth keys: the key that manages projects and API keys over HTTP (/api/v1/admin, telltale keys --endpoint)',
    )
    .option(
      '--auth-refresh-seconds <s>',
      'how often API keys and quotas are reloaded (revocations apply within this)',
      '5',
    )
    .option('--data-dir <dir>', 'embedded ClickHouse (chDB) data directory', './.telltale')
    .option('--clickhouse-url <url>', 'use a remote ClickHouse server instead of the embedded engine')
    .option('--clickhouse-user <user>', 'user for the remote ClickHouse')
    .option(
      '--clickhouse-password <password>',
      'password for the remote ClickHouse (prefer the variable: flags show in process lists)',
    )
    .option(
      '--clickhouse-cluster <name>',
      'with --clickhouse-url: create and use the cluster schema on this cluster (Replicated tables, Distributed in front)',
    )
    .option('--retention-days <days>', 'drop spans older than this (default: 30; storage keeps the last value given)')
    .option(
      '--content-retention-days <days>',
      'drop span content (prompts, tool arguments…) older than this (default: 7)',
    )
    .option('--content-max-bytes <bytes>', 'content kept per span; more is cut and counted (default: 1 MiB)')
    .option('--max-body-bytes <bytes>', 'largest OTLP body accepted after decompression (default: 16 MiB)')
    .option(
      '--request-timeout-ms <ms>',
      'a request (slow or stalled upload included) must complete within this',
      '30000',
    )
    .option(
      '--spool-dir <dir>',
      'durable spool of acknowledged spans not yet in ClickHouse (default: <data-dir>/spool)',
    )
    .option('--spool-max-bytes <bytes>', 'spool size cap; past it, exports get 503 + Retry-After (default: 1 GiB)')
    .option(
      '--spool-segment-bytes <bytes>',
      'spool segment size: drained space is freed a segment at a time (default: 16 MiB)',
    )
    .option('--ingest-workers <n>', 'threads decoding OTLP (0: on the event loop; default: cores − 1, 1 to 4)')
    .option(
      '--drain-batch-spans <n>',
      'spans per insert of the spool backlog into storage: larger costs the engine less per span and holds more memory',
      '64000',
    )
    .option(
      '--engine-nice <n>',
      "steps of niceness the embedded engine's merge and parallel threads run below the rest (Linux; 0: none)",
      '10',
    )
    .option(
      '--memory-trim-ms <ms>',
      "every this many ms, hand what Node's allocator freed back to the system, and every minute the engine library's pages not in use (Linux with glibc; 0: never)",
      '250',
    )
    .option(
      '--orphan-quiet-seconds <s>',
      "spans without a run id, below another service's span, wait this long for their trace's run",
      '30',
    )
    .option('--web-dir <dir>', 'built dashboard to serve')
    .option('--demo', 'also run the simulated agent fleet against this server (variable: true/false/1/0)', false)
    .option(
      '--public-url <url>',
      'base URL of the dashboard for links in alert notifications (default: the listening URL)',
    )
    .option(
      '--alerts-allow-private <cidrs>',
      'comma-separated CIDR ranges webhook destinations may reach although private (on-prem receivers, tests)',
    )
    .option(
      '--alerts-retry-base-ms <ms>',
      'first retry delay of a failed webhook (doubles per attempt, with jitter)',
      '10000',
    )
    .option(
      '--metrics-port <port>',
      'also serve /metrics (and /healthz, /readyz) on this port, same host, without auth',
    )
    .option('--metrics-token <token>', 'with --auth keys: serve /metrics on the main port to this Bearer token')
    .option('--log-level <level>', 'fatal, error, warn, info, debug, trace or silent', 'info');
}

/**
 * Shows each option's variable in `--help` (commander's `.env()`). Call it
 * once every option is added: resolveStartConfig derives the variable from
 * the flag whether or not this ran, so no flag can miss its variable.
 */
export function showEnvVars(command: Command): Command {
  for (const option of command.options as Option[]) {
    if (option.long !== undefined && option.long !== '--help' && option.envVar === undefined)
      option.env(envVarOf(option.long));
  }
  return command;
}
