import type { ClickHouseClient } from '@clickhouse/client';

/** One repository operation, as heard by `Store.open(..., { onQuery })`. */
export interface QueryEvent {
  /** `repository.method`, e.g. `metrics.stepGroupStats`. */
  operation: string;
  durationMs: number;
  /** Rows the server read, summed over the operation's statements; undefined when the connection does not report it. */
  rowsRead: number | undefined;
  /** Rows the operation's queries returned (decoded with `json()`). */
  rowsReturned: number;
  /** Set when the operation failed. */
  error?: unknown;
}

export type QueryListener = (event: QueryEvent) => void;

interface Tally {
  rowsRead: number | undefined;
  rowsReturned: number;
}

function readRowsOf(summary: unknown): number | undefined {
  const text = typeof summary === 'string' ? summary : undefined;
  const parsed: unknown = text === undefined ? summary : JSON.parse(text);
  if (typeof parsed !== 'object' || parsed === null || !('read_rows' in parsed)) return undefined;
  const n = Number(parsed.read_rows);
  return Number.isFinite(n) ? n : undefined;
}

function addRead(tally: Tally, n: number | undefined): void {
  if (n !== undefined) tally.rowsRead = (tally.rowsRead ?? 0) + n;
}

/** `client` with its query results counted into `tally` (rows read from the server's summary, rows returned by `json()`). */
function countingClient(client: ClickHouseClient, tally: Tally): ClickHouseClient {
  return new Proxy(client, {
    get(target, prop, receiver) {
      if (prop === 'query') {
        return async (params: Parameters<ClickHouseClient['query']>[0]) => {
          const result = await target.query(params);
          addRead(tally, readRowsOf(result.response_headers['x-clickhouse-summary']));
          const json = result.json.bind(result);
          return Object.assign(result, {
            json: async () => {
              const rows: unknown = await json();
              if (Array.isArray(rows)) tally.rowsReturned += rows.length;
              return rows;
            },
          });
        };
      }
      if (prop === 'command' || prop === 'insert') {
        return async (params: never) => {
          const result = await (target[prop] as (p: never) => Promise<{ summary?: unknown }>)(params);
          addRead(tally, readRowsOf(result.summary));
          return result;
        };
      }
      const value: unknown = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/**
 * Runs the repositories' operations on the store's client; with a listener,
 * each operation is timed and its rows counted, and the listener hears it
 * (failures included) once it settles.
 */
export class QueryRunner {
  constructor(
    readonly client: ClickHouseClient,
    private readonly onQuery?: QueryListener,
  ) {}

  async run<R>(operation: string, read: (client: ClickHouseClient) => Promise<R>): Promise<R> {
    const listener = this.onQuery;
    if (listener === undefined) return read(this.client);
    const tally: Tally = { rowsRead: undefined, rowsReturned: 0 };
    const started = performance.now();
    try {
      const result = await read(countingClient(this.client, tally));
      listener({ operation, durationMs: performance.now() - started, ...tally });
      return result;
    } catch (error) {
      listener({ operation, durationMs: performance.now() - started, ...tally, error });
      throw error;
    }
  }
}
