import type { Logger } from 'pino';
import { ProgressReporter } from './ProgressReporter.js';

/** A progress reporter for the server's long work: a redrawn line when stderr is a terminal, else log lines through `logger`. */
export function createProgress(logger: Pick<Logger, 'info'>, label: string, unit: string): ProgressReporter {
  return new ProgressReporter({
    label,
    unit,
    terminal: process.stderr.isTTY ? process.stderr : undefined,
    log: (fields, message) => logger.info({ progress: label, ...fields }, message),
  });
}
