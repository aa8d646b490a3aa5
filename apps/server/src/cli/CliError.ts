/** Exit codes of `telltale report` and `telltale check`. */
export const EXIT = { OK: 0, BAR_MISSED: 1, USAGE: 2 } as const;

/** A failure the CLI reports as one line and an exit code (usage and connection errors: 2). */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT.USAGE,
  ) {
    super(message);
    this.name = 'CliError';
  }
}
