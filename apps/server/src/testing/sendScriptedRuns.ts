import { createTelltale, createTracerProvider } from '@telltale/sdk';

/** One step of a scripted run: a tool call, a model call or a plan/validate/act step. */
export interface ScriptedStep {
  kind: 'plan' | 'act' | 'validate' | 'tool' | 'llm';
  name: string;
  /** Simulated duration. */
  ms: number;
  /** The step throws (and so does the run, unless a later attempt succeeds). */
  fails?: boolean;
  model?: string;
  usage?: { inputTokens: number; outputTokens: number; costUsd?: number };
  attributes?: Record<string, string>;
}

export interface ScriptedRun {
  /** Epoch ms the run starts at (a virtual clock: nothing waits). */
  startMs: number;
  steps: readonly ScriptedStep[];
}

/**
 * Sends runs of one agent through the SDK to a server's OTLP endpoint, with
 * exact outcomes and durations, and waits until the server has stored them.
 */
export async function sendScriptedRuns(opts: {
  endpoint: string;
  service: string;
  agent: string;
  runs: readonly ScriptedRun[];
}): Promise<void> {
  const provider = createTracerProvider({ service: opts.service, endpoint: opts.endpoint });
  let now = 0;
  const tt = createTelltale({ tracerProvider: provider, clock: () => now });
  for (const run of opts.runs) {
    now = run.startMs;
    await tt
      .run(opts.agent, async () => {
        for (const s of run.steps) {
          const fn = (): string => {
            now += s.ms;
            if (s.fails === true) throw Object.assign(new Error(`${s.name} failed`), { name: 'ScriptedFailure' });
            return 'ok';
          };
          const stepOpts = s.attributes === undefined ? {} : { attributes: s.attributes };
          if (s.kind === 'tool') await tt.tool(s.name, { step: s.name }, fn, stepOpts);
          else if (s.kind === 'llm') {
            await tt.llm(
              s.name,
              { model: s.model ?? 'gpt-4o-mini' },
              (step) => {
                if (s.usage !== undefined) step.recordUsage(s.usage);
                return fn();
              },
              stepOpts,
            );
          } else await tt[s.kind](s.name, fn, stepOpts);
        }
        now += 1;
      })
      .catch(() => undefined);
  }
  await provider.forceFlush();
  await provider.shutdown();
}
