/** One OTLP/JSON request holding one whole run of `spans` spans. */
export function runRequest(runId: string, spans: number, nowMs = Date.now(), from = 0): string {
  const start = BigInt(nowMs) * 1_000_000n;
  const traceId = Buffer.from(runId.padEnd(16, '.').slice(0, 16)).toString('hex');
  return JSON.stringify({
    resourceSpans: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: 'fault-test' } }] },
        scopeSpans: [
          {
            scope: { name: 'fault-test' },
            spans: Array.from({ length: spans }, (_, i) => i)
              .slice(from)
              .map((i) => ({
                traceId,
                spanId: (i + 1).toString(16).padStart(16, '0'),
                ...(i === 0 ? {} : { parentSpanId: '0000000000000001' }),
                name: i === 0 ? 'agent run' : `step ${i}`,
                kind: 1,
                startTimeUnixNano: String(start + BigInt(i) * 1000n),
                endTimeUnixNano: String(start + BigInt(i) * 1000n + 500n),
                attributes: [
                  { key: 'telltale.run.id', value: { stringValue: runId } },
                  { key: 'payload', value: { stringValue: 'x'.repeat(200) } },
                ],
                status: { code: 1 },
              })),
          },
        ],
      },
    ],
  });
}

export interface SendTally {
  /** Runs whose request got a 200. */
  acked: Set<string>;
  /** Runs whose request got something else or no answer. */
  refused: Set<string>;
  statuses: Map<number, number>;
  /** Retry-After values seen on 503s. */
  retryAfter: number[];
  /** Network failures (server gone). */
  networkErrors: number;
}

/**
 * Senders posting one run per request as fast as they can, recording which
 * runs were acknowledged. With `retry503`, a 503 is retried after its
 * Retry-After (as the OTel exporters do), so a run ends acked unless stopped.
 */
export class RunSender {
  readonly tally: SendTally = {
    acked: new Set(),
    refused: new Set(),
    statuses: new Map(),
    retryAfter: [],
    networkErrors: 0,
  };
  private stopped = false;
  private readonly loops: Promise<void>[] = [];

  constructor(
    private readonly url: () => string,
    private readonly opts: {
      concurrency: number;
      spansPerRun: number;
      prefix: string;
      retry503?: boolean;
      maxRuns?: number;
    },
  ) {}

  start(): void {
    let next = 0;
    for (let c = 0; c < this.opts.concurrency; c++) {
      this.loops.push(
        (async () => {
          while (!this.stopped && next < (this.opts.maxRuns ?? Infinity)) {
            const runId = `${this.opts.prefix}-${next++}`;
            await this.sendOne(runId);
          }
        })(),
      );
    }
  }

  async stop(): Promise<SendTally> {
    this.stopped = true;
    await Promise.all(this.loops);
    return this.tally;
  }

  /** Resolves once all loops end (with maxRuns). */
  async done(): Promise<SendTally> {
    await Promise.all(this.loops);
    return this.tally;
  }

  private async sendOne(runId: string): Promise<void> {
    const body = runRequest(runId, this.opts.spansPerRun);
    for (;;) {
      let res: Response;
      try {
        res = await fetch(`${this.url()}/v1/traces`, {
          method: 'POST',
          body,
          headers: { 'content-type': 'application/json' },
        });
        await res.arrayBuffer();
      } catch {
        this.tally.networkErrors++;
        this.tally.refused.add(runId);
        if (this.stopped || !this.opts.retry503) return;
        await new Promise((r) => setTimeout(r, 200));
        continue;
      }
      this.tally.statuses.set(res.status, (this.tally.statuses.get(res.status) ?? 0) + 1);
      if (res.status === 200) {
        this.tally.acked.add(runId);
        this.tally.refused.delete(runId);
        return;
      }
      this.tally.refused.add(runId);
      if (res.status === 503) this.tally.retryAfter.push(Number(res.headers.get('retry-after')));
      if (res.status !== 503 || !this.opts.retry503 || this.stopped) return;
      await new Promise((r) => setTimeout(r, Number(res.headers.get('retry-after') ?? '1') * 1000));
    }
  }
}
