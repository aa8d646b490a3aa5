import { createContextKey, type Attributes, type Context, type Span } from '@opentelemetry/api';
import { RunStopReason, TelltaleAttr } from '@telltale/semconv';
import { RunGuardError } from '../RunGuardError.js';
import type { RunGuard } from '../types.js';
import { guard } from './reportFault.js';

const RUN_GUARD_KEY = createContextKey('telltale.run.guard');

export function getRunGuard(ctx: Context): RunGuardState | undefined {
  const value = ctx.getValue(RUN_GUARD_KEY);
  return value instanceof RunGuardState ? value : undefined;
}

export function withRunGuard(ctx: Context, state: RunGuardState): Context {
  return ctx.setValue(RUN_GUARD_KEY, state);
}

/**
 * One run's guard: counts steps, identical tool calls and recorded cost, and
 * says, before each step starts, whether that step must be stopped. Limits
 * are checked at step boundaries (JavaScript cannot pre-empt a running
 * step): the step that crosses a limit is the one stopped.
 */
export class RunGuardState {
  private steps = 0;
  private costUsd = 0;
  private readonly calls = new Map<string, number>();
  private readonly startMs: number;

  constructor(
    private readonly limits: RunGuard,
    private readonly runSpan: Span,
    private readonly runId: string,
    private readonly now: () => number,
  ) {
    this.startMs = now();
  }

  /** Adds cost recorded on a step of the run (`recordUsage({ costUsd })`). */
  addCost(usd: number): void {
    if (Number.isFinite(usd)) this.costUsd += usd;
  }

  /** The error that stops this step, or undefined to let it run. */
  check(stepName: string, attributes: Attributes): RunGuardError | undefined {
    const l = this.limits;
    this.steps++;
    const elapsed = this.now() - this.startMs;
    if (l.maxDurationMs !== undefined && elapsed > l.maxDurationMs) {
      return this.stop(
        RunStopReason.timeout,
        stepName,
        l.maxDurationMs,
        elapsed,
        `run ${this.runId} has run ${elapsed} ms, over its limit of ${l.maxDurationMs} ms`,
      );
    }
    if (l.maxCostUsd !== undefined && this.costUsd > l.maxCostUsd) {
      return this.stop(
        RunStopReason.budget,
        stepName,
        l.maxCostUsd,
        this.costUsd,
        `run ${this.runId} has cost $${this.costUsd.toFixed(4)}, over its budget of $${l.maxCostUsd}`,
      );
    }
    if (l.maxSteps !== undefined && this.steps > l.maxSteps) {
      return this.stop(
        RunStopReason.maxSteps,
        stepName,
        l.maxSteps,
        this.steps,
        `run ${this.runId} reached step ${this.steps}, over its limit of ${l.maxSteps} steps`,
      );
    }
    const tool = attributes[TelltaleAttr.toolName];
    const args = attributes[TelltaleAttr.toolArgsHash];
    if (typeof tool === 'string' && typeof args === 'string') {
      const key = `${tool}\u0000${args}`;
      const count = (this.calls.get(key) ?? 0) + 1;
      this.calls.set(key, count);
      if (l.maxRepeats !== undefined && count >= l.maxRepeats) {
        return this.stop(
          RunStopReason.loop,
          stepName,
          l.maxRepeats,
          count,
          `run ${this.runId} called ${tool} with the same arguments ${count} times (limit ${l.maxRepeats}): stopped as a loop`,
        );
      }
    }
    return undefined;
  }

  private stop(
    reason: RunStopReason,
    stepName: string,
    limit: number,
    observed: number,
    message: string,
  ): RunGuardError {
    guard('span.attribute', () => this.runSpan.setAttribute(TelltaleAttr.runStopReason, reason));
    return new RunGuardError({ reason, runId: this.runId, limit, observed, stepName, message });
  }
}
