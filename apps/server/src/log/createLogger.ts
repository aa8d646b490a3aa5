import { createRequire } from 'node:module';
import { pino, type DestinationStream, type Level, type Logger } from 'pino';
import { REDACTED, SecretRedactor } from './SecretRedactor.js';

export interface LoggerOptions {
  level: Level | 'silent';
  /** Secrets known by value (ClickHouse password, admin key): never written, whatever field or message holds them. */
  secrets?: ReadonlyArray<string | undefined>;
  /** Readable lines instead of JSON; default: when stdout is a terminal. */
  pretty?: boolean;
  /** Where JSON lines go (tests); default: stdout. */
  destination?: DestinationStream;
}

/** Fields that hold a secret wherever they appear (one level deep, and a request's headers). */
const REDACT_PATHS = [
  'authorization',
  '*.authorization',
  'headers.authorization',
  'req.headers.authorization',
  'password',
  '*.password',
  'clickhousePassword',
  '*.clickhousePassword',
  'secret',
  '*.secret',
  'apiKey',
  '*.apiKey',
  'adminKey',
  '*.adminKey',
  'metricsToken',
  '*.metricsToken',
];

/**
 * The server's one logger. JSON lines (one object a line, `msg`, numeric
 * `level`) when stdout is not a terminal: what log collectors and the tests
 * read. On a terminal, readable lines from pino-pretty, which runs in a
 * worker thread (pino transport), off the request path.
 *
 * Secrets never reach the output: known fields are replaced by pino's
 * `redact`, and every serialised line (messages and error texts included,
 * e.g. a client error quoting a URL with credentials) passes the
 * SecretRedactor last, before it is written.
 */
export function createLogger(opts: LoggerOptions): Logger {
  const redactor = new SecretRedactor(opts.secrets);
  const options = {
    level: opts.level,
    base: { service: 'telltale' },
    redact: { paths: REDACT_PATHS, censor: REDACTED },
    hooks: { streamWrite: (line: string) => redactor.jsonLine(line) },
  };
  if (opts.destination !== undefined) return pino(options, opts.destination);
  if (opts.pretty ?? process.stdout.isTTY) {
    const target = createRequire(import.meta.url).resolve('pino-pretty');
    return pino(
      options,
      pino.transport({
        target,
        options: {
          colorize: process.env.NO_COLOR === undefined,
          translateTime: 'SYS:HH:MM:ss.l',
          ignore: 'pid,hostname,service',
          singleLine: true,
        },
      }),
    );
  }
  return pino(options);
}
