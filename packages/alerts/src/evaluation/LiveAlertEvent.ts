/**
 * An alert raised from outside the periodic evaluation, while something is
 * still happening — today the contract for a live loop detector (the
 * collector, as spans arrive): `firing` when a run starts to loop, `resolved`
 * when it ends or stops looping. Each `groupKey` (e.g. `run:<runId>`) is its
 * own alert with its own state, so several looping runs are several alerts;
 * raising `firing` twice for one key notifies once (then repeats at the
 * rule's repeat interval), and `resolved` notifies exactly once.
 *
 * Every enabled `any_loop` rule of the project receives the event (its
 * filters on agent / tool are matched against `labels.agent` / `labels.tool`
 * when present), with no `for` duration and no minimum sample.
 */
export interface LiveAlertEvent {
  projectId: string;
  kind: 'loop';
  /** One alert per key, e.g. `run:<runId>`. */
  groupKey: string;
  status: 'firing' | 'resolved';
  /** e.g. the repeat count or ping-pong cycles seen so far. */
  value: number;
  atMs: number;
  /** Shown on the notification: runId, agent, service, loopKind, tool… */
  labels: Readonly<Record<string, string>>;
}

/** What a live detector is given: somewhere to raise events. Never throws; failures go to the sink's error handler. */
export interface AlertEventSink {
  raise(event: LiveAlertEvent): Promise<void>;
}
