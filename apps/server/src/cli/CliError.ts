import type { Command } from 'commander';
import { TelltaleError, TelltaleErrorCode } from '@telltale/semconv';

/** Exit codes of `telltale report` and `telltale check`. */
export const EXIT = { OK: 0, BAR_MISSED: 1, USAGE: 2 } as const;

/**
 * A failure the CLI reports as one line with its code and an exit status (usage and connection errors: 2):
 * `telltale: <message> [<code>]`.
 */
export class CliError extends TelltaleError {
  override readonly name: string = 'CliError';
  constructor(
    message: string,
    readonly exitCode: number = EXIT.USAGE,
    code: TelltaleErrorCode = TelltaleErrorCode.USAGE,
  ) {
    super({ code, message });
  }
}

/** Commander's `outputError` for usage errors (unknown flag, missing value): one line with the USAGE code. */
export function writeUsageError(text: string, write: (line: string) => void): void {
  const message = text
    .replace(/^error: /, '')
    .trim()
    .replace(/\s*\n\s*/g, ' ');
  write(`${cliErrorLine(message, TelltaleErrorCode.USAGE)}\n`);
}

/** Ends the process for a usage error commander found (exit 2), or after help and the version (exit 0). */
export function exitOnUsageError(err: { exitCode: number }): never {
  process.exit(err.exitCode === 0 ? EXIT.OK : EXIT.USAGE);
}

/** Gives a command built on its own (then added with addCommand) and all its subcommands the USAGE error line and exit 2. */
export function withUsageErrorOutput(command: Command): Command {
  command.configureOutput({ outputError: writeUsageError }).exitOverride(exitOnUsageError);
  for (const sub of command.commands) withUsageErrorOutput(sub);
  return command;
}

/** The one line the CLI prints for an error: message, then the code in brackets. */
export function cliErrorLine(message: string, code: TelltaleErrorCode): string {
  return `telltale: ${message} [${code}]`;
}
