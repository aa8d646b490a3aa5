import { OtelAttr } from '@telltale/semconv';
import type { PriceTable, SpanRecord } from '@telltale/store';
import { buildSpanRecord, type RunCommon, type SpanDraft } from './buildSpanRecord.js';
import { spanCostUsd, usageCounts } from './spanCostUsd.js';

/** One attempt group as the generator built it. */
export interface GroupFact {
  stepName: string;
  stepKind: string;
  attempts: number;
  okAttempts: number;
  firstOk: boolean;
  anyOk: boolean;
  retryExtraNs: number;
  retryExtraCostUsd: number;
}

/**
 * Collects a run's spans with their times relative to the run start (ns, as
 * numbers) and their counted cost, until the run is placed in the window.
 */
export class RunRecorder {
  readonly spans: SpanRecord[] = [];
  readonly relStart: number[] = [];
  readonly relEnd: number[] = [];
  readonly cost: number[] = [];
  readonly groups: GroupFact[] = [];
  /** Spans whose step kind is neither '' nor 'run'. */
  steps = 0;
  unpricedSpans = 0;

  constructor(
    readonly common: RunCommon,
    private readonly prices: PriceTable,
  ) {}

  /** Adds a span; returns its index. */
  emit(draft: SpanDraft, start: number, end: number): number {
    const record = buildSpanRecord(draft, this.common);
    const { costUsd, unpriced } = spanCostUsd(record, this.prices);
    if (unpriced) this.unpricedSpans++;
    if (draft.stepKind !== '' && draft.stepKind !== 'run') this.steps++;
    this.spans.push(record);
    this.relStart.push(start);
    this.relEnd.push(end);
    this.cost.push(costUsd);
    return this.spans.length - 1;
  }

  /**
   * Sums the counted usage of spans [from, end) onto an aggregate draft
   * (handoff, wrapper, root): tokens always, cost only when every summed span's
   * cost is explicit — the double-counting trap.
   */
  aggregateUsage(d: SpanDraft, from: number): void {
    let explicit = 0;
    let allExplicit = true;
    for (let i = from; i < this.spans.length; i++) {
      const s = this.spans[i]!;
      if (!usageCounts(s.stepKind) || s.inputTokens + s.outputTokens === 0) continue;
      d.inputTokens += s.inputTokens;
      d.outputTokens += s.outputTokens;
      d.cachedInputTokens += s.cachedInputTokens;
      if (d.model === '') {
        d.model = s.model;
        d.provider = s.provider;
      }
      if (s.costUsd === null) allExplicit = false;
      else explicit += s.costUsd;
    }
    d.costUsd = allExplicit && d.inputTokens + d.outputTokens > 0 ? explicit : null;
  }

  durationOf(index: number): number {
    return this.relEnd[index]! - this.relStart[index]!;
  }

  /** Sets absolute times (base + relative) and an `exception` event on every ERROR span. */
  place(base: bigint): void {
    for (let i = 0; i < this.spans.length; i++) {
      const span = this.spans[i]!;
      span.startTimeUnixNano = base + BigInt(this.relStart[i]!);
      span.endTimeUnixNano = base + BigInt(this.relEnd[i]!);
      if (span.statusCode === 2) {
        span.events = [
          {
            timeUnixNano: span.endTimeUnixNano,
            name: 'exception',
            attributes: [
              { key: OtelAttr.exceptionType, value: span.errorType || 'Error' },
              { key: OtelAttr.exceptionMessage, value: span.statusMessage },
            ],
          },
        ];
      }
    }
  }
}
