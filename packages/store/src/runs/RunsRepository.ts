import type { RunFactsReader } from '../facts/useRunFacts.js';
import type { PriceTable } from '../analytics/AnalyticsFilter.js';
import type { QueryRunner } from '../QueryRunner.js';
import type { SpanDetail } from '../spans/SpanDetail.js';
import { getRunSpans, getTraceSpans } from '../spans/getSpans.js';
import { deleteRun, type DeletedRun } from './deleteRun.js';
import type { TableStatements } from '../cluster/clusterMigrations.js';
import { listRuns } from './listRuns.js';
import { listSessions } from './listSessions.js';
import type { Page, RunFilter, RunSummary } from './RunSummary.js';
import type { SessionFilter, SessionSummary } from './SessionSummary.js';

/**
 * Runs, sessions and their spans. Costs use `prices` (the project's resolved
 * table; without one only explicit span costs count). A list the run facts
 * can answer finalises the project's pending runs first (the store's run
 * facts are passed to it: `runFacts.beforeRead(projectId)`).
 */
export class RunsRepository {
  constructor(
    private readonly runner: QueryRunner,
    private readonly runFacts: RunFactsReader,
    /** How its deletes reach the servers (on a cluster: the shards' local tables). */
    private readonly statements: TableStatements,
  ) {}

  /** The delete under way (deletes run one after another). */
  private deleting: Promise<unknown> = Promise.resolve();

  listRuns(filter: RunFilter, page: Page, prices?: PriceTable): Promise<{ runs: RunSummary[]; total: number }> {
    return this.runner.run('runs.listRuns', (client) =>
      listRuns({ client, runFacts: this.runFacts }, filter, page, prices),
    );
  }

  /** Sessions / conversations (runs grouped by session id), most recently active first. */
  listSessions(
    filter: SessionFilter,
    page: Page,
    prices?: PriceTable,
  ): Promise<{ sessions: SessionSummary[]; total: number }> {
    return this.runner.run('runs.listSessions', (client) =>
      listSessions({ client, runFacts: this.runFacts }, filter, page, prices),
    );
  }

  /** A run's summary and spans, or undefined when the project has no such run. */
  getRun(
    projectId: string,
    runId: string,
    prices?: PriceTable,
  ): Promise<{ run: RunSummary; spans: SpanDetail[] } | undefined> {
    return this.runner.run('runs.getRun', async (client) => {
      const [{ runs }, spans] = await Promise.all([
        listRuns({ client, runFacts: this.runFacts }, { projectId, runId }, { limit: 1, offset: 0 }, prices),
        getRunSpans(client, projectId, runId, prices),
      ]);
      const run = runs[0];
      return run === undefined ? undefined : { run, spans };
    });
  }

  /**
   * Deletes a run with its content, spans and facts (deleteRun.ts); undefined
   * when the project has no such run. The project's pending facts are written
   * first, so none of this run's lands after its delete. Spans of it that
   * arrive later are stored as they come.
   */
  delete(projectId: string, runId: string): Promise<DeletedRun | undefined> {
    // one at a time: a second delete of the same run finds it gone
    const deleted = this.deleting.then(async () => {
      await this.runFacts.beforeRead(projectId);
      return this.runner.run('runs.delete', (client) => deleteRun(client, projectId, runId, this.statements));
    });
    this.deleting = deleted.catch(() => undefined);
    return deleted;
  }

  getTraceSpans(projectId: string, traceId: string, prices?: PriceTable): Promise<SpanDetail[]> {
    return this.runner.run('runs.getTraceSpans', (client) => getTraceSpans(client, projectId, traceId, prices));
  }
}
