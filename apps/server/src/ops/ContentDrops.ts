import type { ExportDone } from '@telltale/collector';

/**
 * Spans whose content this server dropped at ingest, per project (the
 * project stores no content), since it started: shown with the project in
 * the admin API, next to the `telltale_content_spans_total{outcome="dropped"}`
 * counter.
 */
export class ContentDrops {
  private readonly byProject = new Map<string, number>();

  count(done: ExportDone): void {
    const dropped = done.ingested?.content.dropped ?? 0;
    if (dropped > 0 && done.projectId !== undefined)
      this.byProject.set(done.projectId, (this.byProject.get(done.projectId) ?? 0) + dropped);
  }

  of(projectId: string): number {
    return this.byProject.get(projectId) ?? 0;
  }
}
