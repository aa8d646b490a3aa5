import { ALERT_STATES, type AlertStateName } from '@telltale/api-contract';
import type { StoreRows } from '@telltale/store';

/**
 * The per-(rule, group) state machine, pure (time comes in as `nowMs`):
 *
 *   ok / resolved ──breach──► pending ──breach for `forSeconds`──► firing ──no breach──► resolved
 *        ▲                       │ no breach / too few samples                │
 *        └───────────────────────┘                        breach: repeat every repeatIntervalSeconds
 *
 * With `forSeconds` 0 a breach fires at once. Too few samples (or no value)
 * is "unknown": a pending alert falls back to ok, a firing one stays firing
 * (sparse data neither starts nor resolves an alert). A firing alert that
 * stops breaching is resolved exactly once: `resolved` behaves as `ok`.
 */
export { ALERT_STATES };
export type { AlertStateName };

export type NotifyKind = 'firing' | 'resolved';

/** What the state machine keeps per (rule, group): the stored state without its identity and labels. */
export type SeriesState = Omit<
  StoreRows.StoredAlertState,
  'projectId' | 'ruleId' | 'groupKey' | 'labels' | 'state' | 'notifyKind'
> & {
  state: AlertStateName;
  /** The last decided notification's kind (its sequence is `notifySeq`, counted per episode). */
  notifyKind: NotifyKind | '';
};

/** One evaluation's verdict: breaching, not, or unknown (too few samples). */
export interface Verdict {
  breaching: boolean | undefined;
  value: number | undefined;
  sample: number;
}

export interface Timing {
  forSeconds: number;
  repeatIntervalSeconds: number;
}

export interface Transition {
  next: SeriesState;
  /** A notification to send now (its sequence is `next.notifySeq`). */
  notify: NotifyKind | undefined;
  /** Set when the state changed. */
  changed: { from: AlertStateName; to: AlertStateName } | undefined;
}

export function initialState(nowMs: number): SeriesState {
  return {
    state: 'ok',
    episode: '',
    sinceMs: nowMs,
    firedAtMs: undefined,
    lastEvalAtMs: nowMs,
    lastValue: undefined,
    lastSample: 0,
    notifySeq: 0,
    notifyKind: '',
    lastNotifiedAtMs: undefined,
  };
}

export function advance(
  prev: SeriesState,
  verdict: Verdict,
  timing: Timing,
  nowMs: number,
  newEpisode: () => string,
): Transition {
  const observed = { ...prev, lastEvalAtMs: nowMs, lastValue: verdict.value, lastSample: verdict.sample };
  const move = (to: AlertStateName, change: Partial<SeriesState> = {}, notify?: NotifyKind): Transition => {
    const next: SeriesState = { ...observed, ...change, state: to, sinceMs: to === prev.state ? prev.sinceMs : nowMs };
    if (notify !== undefined)
      Object.assign(next, { notifySeq: next.notifySeq + 1, notifyKind: notify, lastNotifiedAtMs: nowMs });
    return { next, notify, changed: to === prev.state ? undefined : { from: prev.state, to } };
  };
  const fire = (episode: string): Transition =>
    move('firing', { episode, firedAtMs: nowMs, ...(episode === prev.episode ? {} : { notifySeq: 0 }) }, 'firing');

  switch (prev.state) {
    case 'ok':
    case 'resolved': {
      if (verdict.breaching !== true) return move(prev.state);
      const episode = newEpisode();
      if (timing.forSeconds <= 0) return fire(episode);
      return move('pending', {
        episode,
        notifySeq: 0,
        notifyKind: '',
        firedAtMs: undefined,
        lastNotifiedAtMs: undefined,
      });
    }
    case 'pending':
      if (verdict.breaching !== true) return move('ok');
      return nowMs - prev.sinceMs >= timing.forSeconds * 1000 ? fire(prev.episode) : move('pending');
    case 'firing': {
      if (verdict.breaching === false) return move('resolved', {}, 'resolved');
      const repeatMs = timing.repeatIntervalSeconds * 1000;
      const due =
        verdict.breaching === true &&
        repeatMs > 0 &&
        prev.lastNotifiedAtMs !== undefined &&
        nowMs - prev.lastNotifiedAtMs >= repeatMs;
      return move('firing', {}, due ? 'firing' : undefined);
    }
  }
}
