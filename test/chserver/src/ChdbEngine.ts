import { Session } from 'chdb';
import { ErrorCatalog } from './ErrorCatalog.js';
import { SerialQueue } from './SerialQueue.js';
import { sqlIdentifier, sqlString } from './sqlQuote.js';

/** One statement to run, with what the request wants applied around it. */
export interface EngineQuery {
  sql: string;
  /** `{name:Type}` values in ClickHouse's escaped text form, exactly as a server receives them. */
  params: ReadonlyMap<string, string>;
  /** Settings for this query only. */
  settings: ReadonlyMap<string, string>;
  database: string | undefined;
  /** The output format when the statement has no FORMAT clause. */
  format: string;
  /** The statement's placeholders (to refuse ones the request did not bind). */
  placeholders: readonly string[];
  /** A SET or USE statement: the session is put back to its baseline afterwards. */
  changesSession: boolean;
}

export interface EngineResult {
  data: Uint8Array;
  /** Rows and bytes chDB reports: the result's for a query, the rows written for an INSERT. */
  rows: number;
  bytes: number;
  elapsedNs: number;
}

/**
 * The one chDB session behind the server. Requests run one at a time; each
 * one's parameters and settings are SET on the session just before it and
 * the settings put back after it, so every request starts from the same
 * baseline, as on a real server without sessions.
 *
 * Query parameters go through `SET param_x = '<text>'`: the engine then
 * parses the text for the placeholder's type exactly as a server parses the
 * `param_x` URL value (chDB's own binding re-escapes strings, which would
 * double the client's escapes). A SET parameter cannot be unset, so a
 * statement that uses a placeholder its request did not bind is refused
 * here, as a server would refuse it, instead of seeing a stale value.
 */
export class ChdbEngine {
  private readonly queue: SerialQueue;
  private readonly paramsSet = new Set<string>();

  private constructor(
    private readonly session: Session,
    readonly catalog: ErrorCatalog,
    readonly version: string,
    readonly timezone: string,
    private readonly baseline: ReadonlyMap<string, string>,
    maxQueued: number,
    private readonly log: (line: string) => void,
  ) {
    this.queue = new SerialQueue(maxQueued);
  }

  static async open(dataDir: string, opts: { maxQueued: number; log: (line: string) => void }): Promise<ChdbEngine> {
    const session = new Session(dataDir);
    try {
      // A server does not run `1 + 1` as `SELECT 1 + 1`; chDB does by default.
      await session.queryAsync('SET implicit_select = 0');
      const codes = await session.queryAsync(
        "SELECT number, errorCodeToName(number) AS name FROM numbers(5000) WHERE name != ''",
        { format: 'JSONCompactEachRow' },
      );
      const catalog = new ErrorCatalog(jsonLines<[number, string]>(codes.text()));
      const info = jsonLines<[string, string]>(
        (await session.queryAsync('SELECT version(), timezone()', { format: 'JSONCompactEachRow' })).text(),
      )[0]!;
      const engine = new ChdbEngine(
        session,
        catalog,
        info[0],
        info[1],
        await changedSettings(session),
        opts.maxQueued,
        opts.log,
      );
      return engine;
    } catch (err) {
      session.close();
      throw err;
    }
  }

  /** Requests queued or running. */
  get queued(): number {
    return this.queue.size;
  }

  run(q: EngineQuery): Promise<EngineResult> {
    if (this.queue.full) {
      return Promise.reject(
        this.catalog.error(
          'TOO_MANY_SIMULTANEOUS_QUERIES',
          `Too many simultaneous queries: ${this.queue.size} queued, the limit is ${this.queue.maxWaiting}`,
        ),
      );
    }
    return this.queue.run(() => this.execute(q));
  }

  /** Waits for the queued requests, then closes the session. */
  async close(): Promise<void> {
    await this.queue.idle();
    this.session.close();
  }

  private async execute(q: EngineQuery): Promise<EngineResult> {
    const stale = q.placeholders.find((name) => !q.params.has(name) && this.paramsSet.has(name));
    if (stale !== undefined)
      throw this.catalog.error('UNKNOWN_QUERY_PARAMETER', `Substitution \`${stale}\` is not set`);
    let settingsApplied = false;
    let databaseChanged = false;
    try {
      const assignments = [
        ...[...q.params].map(([name, value]) => `param_${name} = ${sqlString(value)}`),
        ...[...q.settings].map(([name, value]) => `${name} = ${sqlString(value)}`),
      ];
      if (assignments.length > 0) {
        await this.session.queryAsync(`SET ${assignments.join(', ')}`);
        for (const name of q.params.keys()) this.paramsSet.add(name);
        settingsApplied = q.settings.size > 0;
      }
      if (q.database !== undefined && q.database !== '' && q.database !== 'default') {
        await this.session.queryAsync(`USE ${sqlIdentifier(q.database)}`);
        databaseChanged = true;
      }
      const result = await this.session.queryAsync(q.sql, { format: q.format });
      return {
        data: result.bytes(),
        rows: result.rowsRead,
        bytes: result.bytesRead,
        elapsedNs: Math.round(result.elapsed * 1e9),
      };
    } catch (err) {
      throw this.catalog.from(err);
    } finally {
      await this.restore(settingsApplied ? [...q.settings.keys()] : [], databaseChanged, q.changesSession);
    }
  }

  /** Puts the settings a request changed back to the baseline; never throws. */
  private async restore(settings: readonly string[], databaseChanged: boolean, everything: boolean): Promise<void> {
    try {
      if (everything) {
        await this.resync();
        return;
      }
      if (settings.length > 0) {
        const resets = settings.map((name) => {
          const base = this.baseline.get(name);
          return `${name} = ${base === undefined ? 'DEFAULT' : sqlString(base)}`;
        });
        await this.session.queryAsync(`SET ${resets.join(', ')}`);
      }
      if (databaseChanged) await this.session.queryAsync('USE default');
    } catch (err) {
      this.log(`restoring the session after a request failed (${String(err)}); resynchronising`);
      await this.resync().catch((e: unknown) => this.log(`resynchronising the session failed: ${String(e)}`));
    }
  }

  /** Compares every changed setting with the baseline and puts back the differences. */
  private async resync(): Promise<void> {
    const now = await changedSettings(this.session);
    const resets: string[] = [];
    for (const [name, value] of now) {
      const base = this.baseline.get(name);
      if (base !== value) resets.push(`${name} = ${base === undefined ? 'DEFAULT' : sqlString(base)}`);
    }
    for (const [name, base] of this.baseline) if (!now.has(name)) resets.push(`${name} = ${sqlString(base)}`);
    if (resets.length > 0) await this.session.queryAsync(`SET ${resets.join(', ')}`);
    await this.session.queryAsync('USE default');
  }
}

async function changedSettings(session: Session): Promise<Map<string, string>> {
  const result = await session.queryAsync('SELECT name, value FROM system.settings WHERE changed', {
    format: 'JSONCompactEachRow',
  });
  return new Map(jsonLines<[string, string]>(result.text()));
}

function jsonLines<T>(text: string): T[] {
  return text
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as T);
}
