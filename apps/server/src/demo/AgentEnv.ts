import type { RunHandle, StepHandle, Telltale } from '@telltale/sdk';
import type { DemoModel, TokenUsage } from './demoModels.js';
import { modelCostUsd } from './demoModels.js';
import type { SeededRandom } from './SeededRandom.js';
import { SimulatedFailure, isTransient } from './SimulatedFailure.js';
import type { VirtualClock } from './VirtualClock.js';

/** One simulated agent of the fleet. */
export interface DemoAgent {
  /** The run root's name (the agent's identity within its service). */
  runName: string;
  service: string;
  /** Share of the fleet's runs. */
  weight: number;
  run: (env: AgentEnv, run: RunHandle) => Promise<void>;
  /** The conversation the fleet's `runIndex`-th run belongs to, for agents whose runs form sessions. */
  sessionOf?: (runIndex: number) => string;
}

export interface LatencyShape {
  /** Log-spread (default 0.45). */
  sigma?: number;
  /** Chance of a slow outlier and how much slower it is. */
  tailChance?: number;
  tailFactor?: number;
}

/** What a simulated agent works with: the wrappers, its random source and its clock. */
export class AgentEnv {
  constructor(
    readonly tt: Telltale,
    readonly rng: SeededRandom,
    readonly clock: VirtualClock,
  ) {}

  chance(p: number): boolean {
    return this.rng.chance(p);
  }

  /** Simulates work of about `medianMs`. */
  async work(medianMs: number, shape: LatencyShape = {}): Promise<void> {
    let ms = this.rng.lognormal(medianMs, shape.sigma ?? 0.45);
    if (shape.tailChance !== undefined && this.rng.chance(shape.tailChance)) ms *= shape.tailFactor ?? 10;
    await this.clock.sleep(ms);
  }

  /** Fails after `afterMs` (a timeout takes its full budget, a 429 comes back fast). */
  async fail(code: string, message: string, afterMs: number): Promise<never> {
    await this.clock.sleep(this.rng.lognormal(afterMs, 0.1));
    throw new SimulatedFailure(code, message);
  }

  /** Simulates a model call and records its usage and cost on `step`. */
  async callModel(step: StepHandle, model: DemoModel, usage: TokenUsage): Promise<void> {
    await this.work(model.baseMs + usage.outputTokens * model.msPerOutputToken, {
      sigma: 0.3,
      tailChance: 0.01,
      tailFactor: 4,
    });
    step.recordUsage({ ...usage, costUsd: modelCostUsd(model, usage) });
    step.setResponseModel(model.id);
  }

  /** Records what a model call is given: its system and user messages (kept when the fleet captures content). */
  prompt(step: StepHandle, system: string, user: string): void {
    step.recordInput([
      { role: 'system', content: system },
      { role: 'user', content: user },
    ]);
  }

  /** Records a model call's answer. */
  answer(step: StepHandle, text: string): void {
    step.recordOutput([{ role: 'assistant', content: text }]);
  }

  /** Retry policy for transient failures, with exponential backoff on the virtual clock. */
  retryTransient(attempts: number, initialBackoffMs = 400): { attempts: number; retryIf: (err: unknown) => boolean } {
    let backoff = initialBackoffMs;
    return {
      attempts,
      retryIf: (err) => {
        if (!isTransient(err)) return false;
        this.clock.advance(backoff * (0.8 + 0.4 * this.rng.next()));
        backoff *= 2;
        return true;
      },
    };
  }
}
