/**
 * A ClickHouse exception as the server reports it: numeric code, name and
 * message. The HTTP body is ClickHouse's one-line form, which
 * `@clickhouse/client` parses into a `ClickHouseError` with this code.
 */
export class ChException extends Error {
  constructor(
    readonly code: number,
    readonly type: string,
    message: string,
  ) {
    super(message);
    this.name = 'ChException';
  }

  /** `Code: 62. DB::Exception: <message>. (SYNTAX_ERROR) (version …)` */
  toBody(version: string): string {
    return `Code: ${this.code}. DB::Exception: ${this.message}. (${this.type}) (version ${version})\n`;
  }
}
