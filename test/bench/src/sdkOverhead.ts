import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { ExportResultCode } from '@opentelemetry/core';
import type { ExportResult } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import { OtelAttr, TelltaleAttr } from '@telltale/semconv';
import { createTelltale, createTracerProvider, stableHash } from '@telltale/sdk';

/** Accepts every batch at once: the cost measured is the agent's side only. */
class NoopExporter implements SpanExporter {
  spans = 0;
  export(spans: ReadableSpan[], done: (r: ExportResult) => void): void {
    this.spans += spans.length;
    done({ code: ExportResultCode.SUCCESS });
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

export interface OverheadResult {
  stepsPerRound: number;
  rounds: number;
  /** Median ns per step over the rounds. */
  bareNs: number;
  /** A bare span carrying what the SDK records on a tool step (kind, name, tool name, args hash, attempt, run id). */
  attrsNs: number;
  sdkNs: number;
  /** sdkNs / bareNs: the SDK step against a bare span. */
  ratio: number;
  /** sdkNs / attrsNs: the SDK step against a bare span carrying the same attributes. */
  ratioAttrs: number;
  /** Medians of the per-round ratios (each round's three cases ran back to back): steadier under load. */
  pairedRatio: number;
  pairedRatioAttrs: number;
  /** Every round's ns per step, in round order. */
  bareRounds: number[];
  attrsRounds: number[];
  sdkRounds: number[];
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};

const work = (i: number) => Promise.resolve(i);

type Case = 'bare' | 'attrs' | 'sdk';
const CASES: Case[] = ['bare', 'attrs', 'sdk'];

/**
 * Per-step cost of `tool()` inside `run()` against a bare OpenTelemetry span
 * (`startActiveSpan` around the same awaited function) on the same provider:
 * the SDK's tracer provider (resource, run-id processor, batch processor)
 * over a no-op exporter, an AsyncLocalStorage context manager; and a bare
 * span carrying the same attributes the SDK records. All three run in one
 * process, round after round, the order rotating each round so drift on a
 * shared machine (and GC debt left by the previous case) hits all three.
 */
export async function measureOverhead(stepsPerRound: number, rounds: number): Promise<OverheadResult> {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const exporter = new NoopExporter();
  const provider = createTracerProvider({ service: 'sdk-bench', exporter });
  const tt = createTelltale({ tracerProvider: provider });
  const tracer = provider.getTracer('bare');

  const bare = async () => {
    const t0 = process.hrtime.bigint();
    await tracer.startActiveSpan('run', async (root) => {
      for (let i = 0; i < stepsPerRound; i++) {
        await tracer.startActiveSpan('lookup_order', async (span) => {
          try {
            return await work(i);
          } finally {
            span.end();
          }
        });
      }
      root.end();
    });
    return Number(process.hrtime.bigint() - t0) / stepsPerRound;
  };
  const attrs = async () => {
    const t0 = process.hrtime.bigint();
    await tracer.startActiveSpan('run', async (root) => {
      for (let i = 0; i < stepsPerRound; i++) {
        const args = { orderId: 'ORD-1001', i };
        const attributes = {
          [TelltaleAttr.stepKind]: 'tool',
          [TelltaleAttr.stepName]: 'lookup_order',
          [TelltaleAttr.toolName]: 'lookup_order',
          [OtelAttr.genAiToolName]: 'lookup_order',
          [OtelAttr.genAiOperationName]: 'execute_tool',
          [TelltaleAttr.toolArgsHash]: stableHash(args),
          [TelltaleAttr.stepAttempt]: 1,
          [TelltaleAttr.runId]: 'bench-run',
        };
        await tracer.startActiveSpan('lookup_order', { attributes }, async (span) => {
          try {
            return await work(i);
          } finally {
            span.end();
          }
        });
      }
      root.end();
    });
    return Number(process.hrtime.bigint() - t0) / stepsPerRound;
  };
  const sdk = async () => {
    const t0 = process.hrtime.bigint();
    await tt.run(
      'bench-run',
      async () => {
        for (let i = 0; i < stepsPerRound; i++)
          await tt.tool('lookup_order', { orderId: 'ORD-1001', i }, () => work(i));
      },
      { runId: 'bench-run' },
    );
    return Number(process.hrtime.bigint() - t0) / stepsPerRound;
  };
  const run: Record<Case, () => Promise<number>> = { bare, attrs, sdk };

  for (const c of CASES) await run[c](); // warm-up: JIT, first exports
  const times: Record<Case, number[]> = { bare: [], attrs: [], sdk: [] };
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < CASES.length; k++) {
      const c = CASES[(r + k) % CASES.length]!;
      times[c].push(await run[c]());
    }
  }
  await provider.shutdown();
  trace.disable();
  context.disable();
  const bareNs = median(times.bare);
  const sdkNs = median(times.sdk);
  const attrsNs = median(times.attrs);
  return {
    stepsPerRound,
    rounds,
    bareNs,
    attrsNs,
    sdkNs,
    ratio: sdkNs / bareNs,
    ratioAttrs: sdkNs / attrsNs,
    pairedRatio: median(times.sdk.map((x, r) => x / times.bare[r]!)),
    pairedRatioAttrs: median(times.sdk.map((x, r) => x / times.attrs[r]!)),
    bareRounds: times.bare,
    attrsRounds: times.attrs,
    sdkRounds: times.sdk,
  };
}
