import type { ClickHouseClient } from '@clickhouse/client';
import type { QueryRunner } from '../QueryRunner.js';
import { getSpanContent, insertSpanContent, setContentRetentionDays } from './spanContent.js';

type Args<F> = F extends (client: ClickHouseClient, ...rest: infer R) => unknown ? R : never;

/** The content of spans (inputs and outputs), kept apart from the span rows. */
export class ContentRepository {
  constructor(private readonly runner: QueryRunner) {}

  insert(...args: Args<typeof insertSpanContent>): ReturnType<typeof insertSpanContent> {
    return this.runner.run('content.insert', (client) => insertSpanContent(client, ...args));
  }

  /** The content of one span of a run (`spanId`), or of the run's spans. */
  get(...args: Args<typeof getSpanContent>): ReturnType<typeof getSpanContent> {
    return this.runner.run('content.get', (client) => getSpanContent(client, ...args));
  }

  setRetentionDays(...args: Args<typeof setContentRetentionDays>): ReturnType<typeof setContentRetentionDays> {
    return this.runner.run('content.setRetentionDays', (client) => setContentRetentionDays(client, ...args));
  }
}
