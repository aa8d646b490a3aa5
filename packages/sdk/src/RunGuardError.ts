import { TelltaleError, TelltaleErrorCode, type RunStopReason } from '@telltale/semconv';

/**
 * Thrown into the agent when a run guard (`run(…, { guard })`) stops the run:
 * `loop` (the same tool with the same arguments `maxRepeats` times),
 * `max_steps`, `budget` (recorded cost above `maxCostUsd`) or `timeout`
 * (longer than `maxDurationMs`). The step that tripped the guard is recorded
 * as a failed span but its function is not called; the run span carries
 * `telltale.run.stop_reason`. Spans it fails have `error.type`
 * `run_guard.<reason>` (`run_guard.timeout`…). Catch it to fall back. Its
 * code is RUN_STOPPED.
 */
export class RunGuardError extends TelltaleError {
  override readonly name: string = 'RunGuardError';
  readonly reason: RunStopReason;
  readonly runId: string;
  /** The limit that was reached, and the value that reached it. */
  readonly limit: number;
  readonly observed: number;
  /** The step that was stopped. */
  readonly stepName: string;

  constructor(opts: {
    reason: RunStopReason;
    runId: string;
    limit: number;
    observed: number;
    stepName: string;
    message: string;
  }) {
    super({ code: TelltaleErrorCode.RUN_STOPPED, message: opts.message });
    this.reason = opts.reason;
    this.runId = opts.runId;
    this.limit = opts.limit;
    this.observed = opts.observed;
    this.stepName = opts.stepName;
  }
}
