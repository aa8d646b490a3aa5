import type { ClickHouseClient } from '@clickhouse/client';
import { createClickHouseClient, type StoreConnection } from './client.js';
import { migrate } from './migrate.js';
import { insertSpans } from './spans/insertSpans.js';
import type { SpanRecord } from './spans/SpanRecord.js';
import type { SpanDetail } from './spans/SpanDetail.js';
import { getRunSpans, getTraceSpans } from './spans/getSpans.js';
import { listRuns } from './runs/listRuns.js';
import type { Page, RunFilter, RunSummary } from './runs/RunSummary.js';
import type { PriceTable } from './analytics/AnalyticsFilter.js';

/**
 * The storage facade every other package uses. Each read takes the caller's
 * project id: no query runs unscoped.
 */
export class Store {
  readonly client: ClickHouseClient;

  private constructor(client: ClickHouseClient) {
    this.client = client;
  }

  /** Opens the connection and applies pending migrations. */
  static async open(conn: StoreConnection, opts: { retentionDays?: number } = {}): Promise<Store> {
    const store = new Store(createClickHouseClient(conn));
    try {
      await migrate(store.client);
      if (opts.retentionDays !== undefined) await store.setRetentionDays(opts.retentionDays);
    } catch (err) {
      await store.close();
      throw err;
    }
    return store;
  }

  insertSpans(spans: readonly SpanRecord[], opts?: { deduplicationToken?: string }): Promise<void> {
    return insertSpans(this.client, spans, opts);
  }

  /** Costs use `prices` (the project's resolved table; without one only explicit span costs count). */
  listRuns(filter: RunFilter, page: Page, prices?: PriceTable): Promise<{ runs: RunSummary[]; total: number }> {
    return listRuns(this.client, filter, page, prices);
  }

  /** A run's summary and spans, or undefined when the project has no such run. */
  async getRun(projectId: string, runId: string, prices?: PriceTable): Promise<{ run: RunSummary; spans: SpanDetail[] } | undefined> {
    const [{ runs }, spans] = await Promise.all([
      listRuns(this.client, { projectId, runId }, { limit: 1, offset: 0 }, prices),
      getRunSpans(this.client, projectId, runId),
    ]);
    const run = runs[0];
    return run === undefined ? undefined : { run, spans };
  }

  getTraceSpans(projectId: string, traceId: string): Promise<SpanDetail[]> {
    return getTraceSpans(this.client, projectId, traceId);
  }

  /** Spans older than this many days are dropped (whole daily parts). */
  async setRetentionDays(days: number): Promise<void> {
    if (!Number.isInteger(days) || days < 1) throw new RangeError(`retention must be a whole number of days ≥ 1, got ${days}`);
    await this.client.command({ query: `ALTER TABLE spans MODIFY TTL toDateTime(start_time) + INTERVAL ${days} DAY` });
  }

  async ping(): Promise<boolean> {
    const result = await this.client.ping();
    return result.success;
  }

  close(): Promise<void> {
    return this.client.close();
  }
}
