import { createTelltale, createTracerProvider } from '@telltale/sdk';

export interface AgentScript {
  service: string;
  agent: string;
  runs: number;
  /** Run i fails (its tool throws) when this says so. */
  fails: (i: number) => boolean;
  /** Simulated run duration of run i, ms (a virtual clock: nothing waits). */
  durationMs: (i: number) => number;
  /** Run i repeats the same tool call this many times (≥ 3 is a loop). */
  repeats?: (i: number) => number;
  /** Start of run 0, epoch ms; runs are one second apart. */
  startMs: number;
}

/**
 * Sends one agent's runs through the SDK's OTLP exporter with exact outcomes
 * and durations, and resolves once the server has acknowledged every span.
 */
export async function sendAgentRuns(endpoint: string, script: AgentScript): Promise<void> {
  const provider = createTracerProvider({ service: script.service, endpoint });
  let now = 0;
  const tt = createTelltale({ tracerProvider: provider, clock: () => now });
  for (let i = 0; i < script.runs; i++) {
    const runStart = script.startMs + i * 1000;
    now = runStart;
    const total = script.durationMs(i);
    const repeats = Math.max(1, script.repeats?.(i) ?? 1);
    await tt
      .run(script.agent, async () => {
        await tt.plan('plan', () => {
          now += total * 0.1;
        });
        for (let r = 0; r < repeats; r++) {
          await tt.tool('search', { q: 'same query' }, () => {
            now += (total * 0.8) / repeats;
            if (script.fails(i) && r === repeats - 1) {
              now = runStart + total; // a failed run lasts exactly as long too
              throw Object.assign(new Error('search failed'), { name: 'ToolError' });
            }
            return 'hit';
          });
        }
        now = runStart + total;
      })
      .catch(() => undefined);
  }
  await provider.forceFlush();
  await provider.shutdown();
}
