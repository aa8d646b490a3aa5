import type { ClickHouseClient } from '@clickhouse/client';
import type { QueryRunner } from '../QueryRunner.js';
import type { TableStatements } from '../cluster/clusterMigrations.js';
import type { InsertTransport } from '../insertTransport.js';
import type { SpanBatchMessages } from '../spans/insertSpanBatches.js';
import { encodeContentRecordBatch } from './arrow/encodeContentRecordBatch.js';
import type { SpanContentRecord } from './SpanContentRecord.js';
import { getContentSpanIds, getSpanContent, insertSpanContentBatches, setContentRetentionDays } from './spanContent.js';

type Args<F> = F extends (client: ClickHouseClient, ...rest: infer R) => unknown ? R : never;

/** The content of spans (inputs and outputs), kept apart from the span rows. */
export class ContentRepository {
  constructor(
    private readonly runner: QueryRunner,
    private readonly transport: InsertTransport,
    private readonly statements: TableStatements,
  ) {}

  /** Stores content records as one ArrowStream insert (idempotent for a repeated token). */
  async insert(rows: readonly SpanContentRecord[], opts: { deduplicationToken?: string } = {}): Promise<void> {
    if (rows.length === 0) return;
    await this.insertBatches([encodeContentRecordBatch(rows)], opts);
  }

  /** Stores record batch messages (encodeContentRecordBatch) as one ArrowStream insert, as spans are stored. */
  insertBatches(messages: SpanBatchMessages, opts: { deduplicationToken?: string } = {}): Promise<void> {
    return this.runner.run('content.insert', (client) =>
      insertSpanContentBatches(client, this.transport, messages, opts),
    );
  }

  /** The content of one span of a run (`spanId`), or of the run's spans. */
  get(...args: Args<typeof getSpanContent>): ReturnType<typeof getSpanContent> {
    return this.runner.run('content.get', (client) => getSpanContent(client, ...args));
  }

  /** The spans of a run that have content kept (ids only). */
  spanIds(...args: Args<typeof getContentSpanIds>): ReturnType<typeof getContentSpanIds> {
    return this.runner.run('content.spanIds', (client) => getContentSpanIds(client, ...args));
  }

  /** Content older than this many days is dropped (whole daily parts), independently of the spans. */
  setRetentionDays(days: number): Promise<void> {
    return this.runner.run('content.setRetentionDays', (client) =>
      setContentRetentionDays(client, days, this.statements),
    );
  }
}
