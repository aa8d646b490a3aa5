import { randomUUID } from 'node:crypto';
import { RepeatingTask } from '@telltale/semconv';
import type { AlertEvaluator, LiveAlertEvent } from '@telltale/alerts';
import type { Store } from '@telltale/store';
import { z } from 'zod';

/** Ingest processes write their live events at most this long after they happen (one insert per flush). */
const PUBLISH_EVERY_MS = 500;
/** The alert worker looks for new events this often… */
const POLL_EVERY_MS = 1_000;
/** …re-reading this window, so an event whose insert was slow to show is still seen (each event is raised once). */
const POLL_WINDOW_MS = 120_000;

const LiveAlertEventSchema = z.object({
  projectId: z.string(),
  kind: z.literal('loop'),
  groupKey: z.string(),
  status: z.enum(['firing', 'resolved']),
  value: z.number(),
  atMs: z.number(),
  labels: z.record(z.string(), z.string()),
});

/**
 * An ingest process's side (split roles): live alert events go to storage
 * (`live_alert_events`) instead of an evaluator in this process, in batches
 * every PUBLISH_EVERY_MS; a failed insert keeps its events for the next.
 */
export function liveEventPublisher(
  store: Store,
  onError: (err: unknown) => void,
): { publish: (e: LiveAlertEvent) => void; stop: () => Promise<void> } {
  let buffer: { eventId: string; projectId: string; payload: string }[] = [];
  let flushing: Promise<void> = Promise.resolve();
  const flush = (): Promise<void> => {
    flushing = flushing.then(async () => {
      if (buffer.length === 0) return;
      const batch = buffer;
      buffer = [];
      try {
        await store.insertLiveAlertEvents(batch);
      } catch (err) {
        buffer = [...batch, ...buffer];
        onError(err);
      }
    });
    return flushing;
  };
  const timer = setInterval(() => void flush(), PUBLISH_EVERY_MS);
  return {
    publish: (e) => buffer.push({ eventId: randomUUID(), projectId: e.projectId, payload: JSON.stringify(e) }),
    stop: async () => {
      clearInterval(timer);
      await flush();
    },
  };
}

/**
 * The alert worker's side: polls `live_alert_events` and raises each event
 * once on the evaluator. An event older than what the alert state already
 * holds for its group (a new leader re-reading the window) is skipped, so a
 * takeover does not replay a loop that was already notified and resolved.
 */
export class LiveEventPoller {
  private readonly seen = new Map<string, number>();
  private readonly loop: RepeatingTask;

  constructor(
    private readonly store: Store,
    private readonly evaluator: AlertEvaluator,
    onError: (err: unknown) => void,
  ) {
    this.loop = new RepeatingTask({ run: () => this.poll(), everyMs: POLL_EVERY_MS, onError });
  }

  start(): void {
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** Raises the events not seen yet; returns how many. */
  async poll(): Promise<number> {
    const rows = await this.store.recentLiveAlertEvents(POLL_WINDOW_MS);
    let raised = 0;
    for (const row of rows) {
      if (this.seen.has(row.eventId)) continue;
      this.seen.set(row.eventId, row.writtenAtMs);
      const parsed = LiveAlertEventSchema.safeParse(JSON.parse(row.payload));
      if (!parsed.success) continue;
      const event = parsed.data;
      const applied = this.evaluator
        .statesOf(event.projectId)
        .some((s) => s.groupKey === event.groupKey && s.lastEvalAtMs >= event.atMs);
      if (applied) continue;
      await this.evaluator.raise(event);
      raised++;
    }
    const oldest = (rows[0]?.writtenAtMs ?? Date.now()) - POLL_WINDOW_MS;
    for (const [id, at] of this.seen) if (at < oldest) this.seen.delete(id);
    return raised;
  }
}
