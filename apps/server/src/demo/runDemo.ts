import type { TracerProvider } from '@opentelemetry/api';
import { createTelltale, createTracerProvider } from '@telltale/sdk';
import type { SpanExporter, TelltaleTracerProvider } from '@telltale/sdk';
import { AgentEnv } from './AgentEnv.js';
import type { DemoAgent } from './AgentEnv.js';
import { DEMO_AGENTS, pickAgent } from './demoAgents.js';
import { SeededRandom } from './SeededRandom.js';
import { SpanCounter } from './SpanCounter.js';
import { VirtualClock } from './VirtualClock.js';

export interface RunDemoOptions {
  /** OTLP/HTTP base URL of the Telltale server, e.g. `http://127.0.0.1:4318`. */
  endpoint: string;
  apiKey?: string;
  /** `telltale.project` resource attribute (open mode); unset by default. */
  project?: string;
  /** Number of runs (default 300). */
  runs?: number;
  /** PRNG seed (default 42): same seed, same fleet — agents, outcomes, steps, latencies. */
  seed?: number;
  /** Runs in flight at once (default 20). */
  concurrency?: number;
  /** Called after each run. */
  onProgress?: (done: number, total: number) => void;
  /** Run start times are spread over this window ending `endsAt` (default 1 hour). */
  windowMs?: number;
  /** End of the window, epoch ms (default: now minus 2 minutes, so every run has ended). */
  endsAt?: number;
  /** Send spans here instead of OTLP (tests). One provider per service is still created. */
  exporter?: SpanExporter;
  /** Or use this provider for every agent (its resource is yours; it is flushed, not shut down). */
  tracerProvider?: TracerProvider;
}

export interface RunDemoResult {
  runs: number;
  /** Spans produced (unknown with an injected `tracerProvider`). */
  spans?: number;
  failedRuns: number;
}

/** How long a simulated run may last; start times leave room for it before `endsAt`. */
const MAX_RUN_MS = 5 * 60_000;

/**
 * Runs a simulated fleet of SDK-instrumented agents and sends their spans to
 * a Telltale server, with what the agents saw (model messages, tool
 * arguments and results) and the support bot's runs grouped into
 * conversations. Spans carry simulated time (a virtual clock per run), so
 * latencies look real while ~300 runs take about a second. Uses its own
 * tracer providers, never the global one, and flushes them before resolving.
 * Export failures are reported by the SDK's fault handler, never thrown.
 */
export async function runDemo(opts: RunDemoOptions): Promise<RunDemoResult> {
  const total = Math.max(0, Math.floor(opts.runs ?? 300));
  const concurrency = Math.max(1, Math.floor(opts.concurrency ?? 20));
  const windowMs = opts.windowMs ?? 60 * 60_000;
  const endsAt = opts.endsAt ?? Date.now() - 2 * 60_000;
  const firstStart = endsAt - MAX_RUN_MS - windowMs;

  const counter = new SpanCounter();
  const owned = new Map<string, TelltaleTracerProvider>();
  const providerFor = (agent: DemoAgent): TracerProvider => {
    if (opts.tracerProvider !== undefined) return opts.tracerProvider;
    let provider = owned.get(agent.service);
    if (provider === undefined) {
      provider = createTracerProvider({
        endpoint: opts.endpoint,
        apiKey: opts.apiKey,
        project: opts.project,
        service: agent.service,
        exporter: opts.exporter,
        resourceAttributes: { 'service.version': '1.4.2', 'deployment.environment.name': 'demo' },
        spanProcessors: [counter],
        batch: { maxQueueSize: 50_000, maxExportBatchSize: 1_000, scheduledDelayMillis: 250 },
      });
      owned.set(agent.service, provider);
    }
    return provider;
  };
  for (const agent of DEMO_AGENTS) providerFor(agent);

  // Decide every run up front, in order, so concurrency cannot change the fleet.
  const master = new SeededRandom(opts.seed ?? 42);
  const plans = Array.from({ length: total }, (_, i) => ({
    agent: pickAgent(master.next()),
    rng: master.fork(),
    startsAt: firstStart + ((i + master.next()) / Math.max(1, total)) * windowMs,
  }));

  let next = 0;
  let done = 0;
  let failedRuns = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < total; i = next++) {
      const plan = plans[i];
      if (plan === undefined) break;
      const clock = new VirtualClock(plan.startsAt);
      // the fleet keeps what its agents saw (redacted by the SDK), so run pages show it
      const tt = createTelltale({ tracerProvider: providerFor(plan.agent), clock: clock.now, capture: 'full' });
      const env = new AgentEnv(tt, plan.rng, clock);
      const sessionId = plan.agent.sessionOf?.(i);
      try {
        await tt.run(
          plan.agent.runName,
          (run) => plan.agent.run(env, run),
          sessionId === undefined ? {} : { sessionId },
        );
      } catch {
        failedRuns++;
      }
      done++;
      opts.onProgress?.(done, total);
      if (done % 500 === 0) await flushAll(owned.values(), opts.tracerProvider);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, Math.max(1, total)) }, worker));

  await flushAll(owned.values(), opts.tracerProvider);
  await Promise.all([...owned.values()].map((p) => p.shutdown().catch(() => undefined)));
  return opts.tracerProvider === undefined
    ? { runs: total, spans: counter.count, failedRuns }
    : { runs: total, failedRuns };
}

async function flushAll(owned: Iterable<TelltaleTracerProvider>, injected: TracerProvider | undefined): Promise<void> {
  const flushable = injected as { forceFlush?: () => Promise<void> } | undefined;
  const providers = [...owned];
  await Promise.all([
    ...providers.map((p) => p.forceFlush().catch(() => undefined)),
    typeof flushable?.forceFlush === 'function' ? flushable.forceFlush().catch(() => undefined) : undefined,
  ]);
}
