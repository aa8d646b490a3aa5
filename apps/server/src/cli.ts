#!/usr/bin/env node
// first: the engine's allocator reads its options when the engine loads
import './memory/beforeEngineLoads.js';
import { Command, Option } from 'commander';
import { TelltaleErrorCode, toTelltaleError } from '@telltale/semconv';
import {
  CliError,
  cliErrorLine,
  EXIT,
  exitOnUsageError,
  withUsageErrorOutput,
  writeUsageError,
} from './cli/CliError.js';
import { DEFAULT_ENDPOINT } from './cli/commonOptions.js';
import { alertsCommand } from './cli/alertsCommand.js';
import { keysCommand } from './cli/keysCommand.js';
import { projectsCommand } from './cli/projectsCommand.js';
import { runsCommand } from './cli/runsCommand.js';
import { addStartOptions, showEnvVars } from './cli/startOptions.js';
import { addStoreOptions, storeConnection, type StoreOptions } from './cli/storeOptions.js';
import { runCheck, type CheckOptions } from './cli/runCheck.js';
import { runReport, type ReportOptions } from './cli/runReport.js';
import type { RunningServer } from './http/startServer.js';
import { roleConflict } from './roles/serverRoles.js';
import { SecretRedactor, secretValuesOf } from './log/SecretRedactor.js';
import { packageVersion } from './version.js';

/** Signals within this long of the first are the same interrupt, delivered twice; a later one forces the exit. */
const SAME_SIGNAL_MS = 1_000;

const program = new Command()
  .name('telltale')
  .description('Reliability observability for AI agents: OTLP collector, ClickHouse storage, API and dashboard')
  .version(packageVersion(), '-V, --version', 'print the version')
  .showHelpAfterError()
  // usage errors of every command created below name their code (start and the query commands answer one line) and exit 2
  .configureOutput({ outputError: writeUsageError })
  .exitOverride(exitOnUsageError)
  // a reader that stops early (`telltale alerts rules list | head -1`) closes the pipe: the rest is not wanted.
  // The server's own log is left alone: a log reader going away must not stop the collector.
  .hook('preAction', (_program, action) => {
    if (action.name() === 'start') return;
    process.stdout.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE') process.exit(EXIT.OK);
      console.error(cliErrorLine(`cannot write the output: ${err.message}`, TelltaleErrorCode.INTERNAL));
      process.exit(1);
    });
  });

const start = addStartOptions(
  program.command('start').description('run the collector, API and dashboard in one process'),
)
  // usage errors (unknown flag, missing value) answer one line and exit 2, like a bad value
  .showHelpAfterError(false)
  .action(async (_opts: unknown, command: Command) => {
    // Signals are handled from the start: one that arrives while the server starts (the default action would end the
    // process at once, leaving accepted spans to the next start's replay) shuts it down once it is up. A second signal
    // exits at once (what the spool holds is replayed on the next start), unless it comes within SAME_SIGNAL_MS of the
    // first: one interrupt often arrives more than once — a terminal's Ctrl-C signals the whole process group, and the
    // launcher of `npm run up` passes on what it gets as well.
    const state: { server?: RunningServer; signal?: { name: string; at: number } } = {};
    const close = (server: RunningServer, signal: string): void => {
      server.logger.info({ signal }, 'shutting down: flushing accepted spans');
      server.close().then(
        () => process.exit(0),
        (err: unknown) => {
          server.logger.error({ err }, 'shutdown failed');
          process.exit(1);
        },
      );
    };
    const onSignal = (name: string): void => {
      if (state.signal !== undefined) {
        if (Date.now() - state.signal.at < SAME_SIGNAL_MS) return;
        process.exit(1);
      }
      state.signal = { name, at: Date.now() };
      if (state.server !== undefined) close(state.server, name);
    };
    process.on('SIGINT', () => onSignal('SIGINT'));
    process.on('SIGTERM', () => onSignal('SIGTERM'));
    // Heavy modules (storage engine, OTel SDK) load only for the commands that use them.
    const [{ startConfigOf }, { startServer }, { runDemo }] = await Promise.all([
      import('./cli/resolveStartConfig.js'),
      import('./http/startServer.js'),
      import('./demo/runDemo.js'),
    ]);
    const config = startConfigOf(command, process.env);
    if (config.demo && config.auth === 'keys') {
      throw new CliError(
        '--demo sends spans without a key: start with --auth none, or run `telltale demo --api-key <ingest key>` against the server',
        EXIT.USAGE,
        TelltaleErrorCode.INVALID_CONFIG,
      );
    }
    const conflict = roleConflict(config.role, config.clickhouseUrl);
    if (conflict !== undefined) throw new CliError(conflict, EXIT.USAGE, TelltaleErrorCode.INVALID_CONFIG);
    const running = await startServer(config);
    state.server = running;
    if (state.signal !== undefined) {
      close(running, state.signal.name);
      return;
    }
    if (config.demo) {
      running.logger.info('demo: running a simulated agent fleet');
      const { createProgress } = await import('./progress/createProgress.js');
      const progress = createProgress(running.logger, 'demo', 'runs');
      const result = await runDemo({
        endpoint: running.url,
        onProgress: (done, total) => progress.update(done, total),
      }).finally(() => progress.finish());
      running.logger.info({ ...result, dashboard: running.url }, 'demo data loaded: open the dashboard');
    }
  });

program
  .command('demo')
  .description('run a simulated fleet of SDK-instrumented agents against a running server')
  .option('--endpoint <url>', 'the server to send to', 'http://127.0.0.1:4318')
  .option('--runs <n>', 'how many runs', '300')
  .option('--seed <n>', 'random seed (same seed, same fleet)', '42')
  .addOption(
    new Option('--api-key <key>', 'an ingest key, for a server started with --auth keys').env('TELLTALE_INGEST_KEY'),
  )
  .action(async (opts: { endpoint: string; runs: string; seed: string; apiKey?: string }) => {
    const { runDemo } = await import('./demo/runDemo.js');
    const result = await runDemo({
      endpoint: opts.endpoint,
      runs: Number(opts.runs),
      seed: Number(opts.seed),
      ...(opts.apiKey === undefined ? {} : { apiKey: opts.apiKey }),
    });
    console.log(`sent ${result.runs} runs to ${opts.endpoint}`);
  });

addStoreOptions(program.command('migrate').description('apply pending storage migrations and exit')).action(
  async (opts: StoreOptions) => {
    const { Store } = await import('@telltale/store');
    const store = await Store.open(storeConnection(opts));
    await store.close();
    console.log('migrations applied');
  },
);

const out = (text: string): void => void process.stdout.write(text);
const err = (text: string): void => void process.stderr.write(text);
program.addCommand(withUsageErrorOutput(projectsCommand(out)));
program.addCommand(withUsageErrorOutput(keysCommand(out, err)));
program.addCommand(withUsageErrorOutput(alertsCommand(out, err)));
program.addCommand(withUsageErrorOutput(runsCommand(out)));

/** `report` and `check` talk HTTP to a server; usage errors exit 2 (1 means a bar was missed). */
function queryCommand(name: string, description: string): Command {
  return program
    .command(name)
    .description(description)
    .option('--endpoint <url>', 'the Telltale server', DEFAULT_ENDPOINT)
    .option('--since <duration>', 'window ending now: 30m, 2h, 7d', '24h')
    .option('--agent <name>', 'only this agent (the run root name)')
    .addOption(new Option('--api-key <key>', 'API key (Authorization: Bearer)').env('TELLTALE_API_KEY'));
}

/** `report` and `check` exit 1 only for a missed bar: any failure of theirs is 2. */
async function failingWithUsage(run: () => Promise<number>): Promise<void> {
  try {
    process.exitCode = await run();
  } catch (err) {
    if (err instanceof CliError && err.exitCode !== EXIT.USAGE) throw new CliError(err.message, EXIT.USAGE, err.code);
    throw err;
  }
}

queryCommand('report', 'print the reliability report of a running server')
  .option('--json', 'print the API responses as JSON', false)
  .action((opts: ReportOptions) => failingWithUsage(() => runReport(opts, (text) => process.stdout.write(text))));

queryCommand('check', 'exit 1 when an agent misses a reliability bar (for CI and cron)')
  .option('--min-success <fraction>', 'lowest observed end-to-end success, e.g. 0.95 or 95%')
  .option('--max-p99 <duration>', 'highest run-duration p99, e.g. 2s or 500ms')
  .option('--max-loop-rate <fraction>', 'highest share of runs with a loop, e.g. 0.01')
  .action((opts: CheckOptions) => failingWithUsage(() => runCheck(opts, (text) => process.stdout.write(text))));

// every start flag shows its TELLTALE_* variable in --help (flags added above included)
showEnvVars(start);

// one line, secrets removed (a storage error may quote a URL with credentials)
program.parseAsync().catch((caught: unknown) => {
  const variables = Object.fromEntries(Object.entries(process.env).filter(([name]) => name.startsWith('TELLTALE_')));
  const redactor = new SecretRedactor([...secretValuesOf(variables), ...secretValuesOf(start.opts())]);
  if (caught instanceof CliError) {
    console.error(cliErrorLine(redactor.text(caught.message), caught.code));
    process.exit(caught.exitCode);
  }
  const err = toTelltaleError(caught);
  console.error(cliErrorLine(redactor.text(err.message).split('\n', 1)[0] ?? '', err.code));
  // a configuration refused later than its parsing (a public address without --auth keys) is still a usage error
  process.exit(err.code === TelltaleErrorCode.INVALID_CONFIG || err.code === TelltaleErrorCode.USAGE ? EXIT.USAGE : 1);
});
