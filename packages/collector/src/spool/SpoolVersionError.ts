import { TelltaleError, TelltaleErrorCode } from '@telltale/semconv';

/**
 * The spool holds records whose payload version this build neither stores
 * nor converts. They are refused — not stored, not dropped — and the spool
 * drains no further (it drains in order) until the operator deals with them.
 */
export class SpoolVersionError extends TelltaleError {
  constructor(
    readonly found: number,
    readonly expected: number,
    readonly dir: string,
    readonly files: readonly string[],
  ) {
    const where = files.length === 0 ? `in ${dir}` : files.join(', ');
    super({
      code: TelltaleErrorCode.SPOOL_VERSION,
      message:
        `spool ${dir} holds records of spans schema version ${found}; this build stores version ${expected} and has no converter from ${found}, ` +
        `so they are kept on disk and not stored, and nothing spooled after them is stored either. ` +
        `To resolve: stop the server, then move ${where} out of the spool directory and start again (what follows drains); ` +
        `to store the moved spans, start the release that wrote them (spans schema version ${found}) with a directory holding only those files as its --spool-dir, against the same ClickHouse.`,
    });
  }
}
