import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { ExportDone, LimitCounts, RejectCounts } from '@telltale/collector';
import { HTTP_STATUS_BY_CODE, type TelltaleErrorCode } from '@telltale/semconv';
import type { EngineMemory } from '@telltale/store';
import type { MemoryReturnStats } from '../memory/MemoryReturn.js';

/** What the gauges read when scraped (existing state, nothing counted on the hot path). */
export interface MetricSources {
  spool: () => {
    usedBytes: number;
    capacityBytes: number;
    records: number;
    backlogSpans: number;
    oldestAtMs: number | undefined;
  };
  runFacts: () => {
    pendingRuns: number;
    oldestPendingSinceMs: number | undefined;
    catchUpRemainingRuns: number;
    /** Runs finalised since start: from spans in hand (at ingest), and by the SQL finaliser. */
    finalised: { incremental: number; sql: number };
  };
  /** Split roles, ingest processes only: the share of each project's quota this process enforces (1 / live ingest processes). */
  quotaShare?: (() => number) | undefined;
  /** The V8 heaps of the ingest worker threads, bytes in memory (absent: no collector in this process). */
  ingestWorkerHeapBytes?: (() => number) | undefined;
  /** The embedded engine's memory (absent, or undefined when read: no embedded engine here). */
  engineMemory?: (() => Promise<EngineMemory | undefined>) | undefined;
  /** What has been handed back to the system since start (absent: nothing is, here). */
  memoryReturn?: (() => MemoryReturnStats) | undefined;
  /** Epoch ms now (tests pass their own). */
  clock?: () => number;
}

/** The embedded engine's memory gauges: name, help, and the figure each shows. */
const ENGINE_GAUGES: ReadonlyArray<[string, string, (m: EngineMemory) => number]> = [
  [
    'telltale_engine_allocated_bytes',
    "Embedded engine: bytes its allocator has handed out and not had back (the engine's memory in use).",
    (m) => m.allocatedBytes,
  ],
  [
    'telltale_engine_resident_bytes',
    "Embedded engine: bytes of its allocator's pages in memory, in use or freed and kept for reuse (resident minus allocated: given back to the system after a delay).",
    (m) => m.residentBytes,
  ],
  ['telltale_engine_merges', 'Embedded engine: background merges running.', (m) => m.merges],
  [
    'telltale_engine_merge_memory_bytes',
    'Embedded engine: memory held by the background merges running (part of telltale_engine_allocated_bytes).',
    (m) => m.mergeBytes,
  ],
];

/** Outcome label of an OTLP request that was refused, from its error code. */
const OUTCOME_BY_CODE: Readonly<Record<TelltaleErrorCode, string>> = {
  BAD_REQUEST: 'bad_request',
  UNSUPPORTED_MEDIA_TYPE: 'unsupported_media_type',
  PAYLOAD_TOO_LARGE: 'too_large',
  NOT_FOUND: 'not_found',
  UNAUTHORIZED: 'unauthorized',
  FORBIDDEN: 'forbidden',
  CONFLICT: 'conflict',
  RATE_LIMITED: 'rate_limited',
  UNAVAILABLE: 'unavailable',
  STORAGE: 'storage_error',
  INTERNAL: 'internal_error',
  // not answers to an OTLP request; listed because the map covers every code
  USAGE: 'bad_request',
  INVALID_CONFIG: 'bad_request',
  UNREACHABLE: 'unavailable',
  INCOMPATIBLE_SERVER: 'internal_error',
  LISTEN_FAILED: 'unavailable',
  SPOOL_LOCKED: 'storage_error',
  SPOOL_CORRUPT: 'storage_error',
  SPOOL_VERSION: 'storage_error',
  RUN_STOPPED: 'internal_error',
  UNSUPPORTED_CLIENT: 'internal_error',
};

/** Default Node metrics that are gauges with a `_total` suffix. */
const NON_COUNTER_TOTALS = [
  'nodejs_active_handles_total',
  'nodejs_active_requests_total',
  'nodejs_active_resources_total',
];

const REJECT_REASONS: ReadonlyArray<[keyof RejectCounts, string]> = [
  ['overRequestLimit', 'over_request_limit'],
  ['invalid', 'invalid'],
  ['outOfTimeRange', 'out_of_time_range'],
];
const CUT_KINDS: ReadonlyArray<[keyof LimitCounts, string]> = [
  ['truncatedValues', 'value_truncated'],
  ['droppedAttributes', 'attribute_dropped'],
  ['droppedEvents', 'event_dropped'],
  ['droppedLinks', 'link_dropped'],
];

/** The stages of an accepted export request (ExportStages), in the order it takes them. */
const STAGES = ['read', 'hold', 'wait', 'process', 'commit'] as const;

/**
 * Every Prometheus metric of one server, in its own registry (several
 * servers in one process stay apart). Counters are bumped once per request
 * or batch; gauges read the collector's and the run facts' state on scrape.
 * docs/operations.md lists them.
 */
export class TelltaleMetrics {
  readonly registry = new Registry();
  private readonly otlpRequests: Counter<'protocol' | 'outcome'>;
  private readonly spansAccepted: Counter<'protocol'>;
  private readonly spansRejected: Counter<'reason'>;
  private readonly spanLimitCuts: Counter<'kind'>;
  private readonly contentSpans: Counter<'outcome'>;
  private readonly refused: Counter<'protocol' | 'code'>;
  private readonly drainBatch: Histogram;
  private readonly otlpStages: Histogram<'stage'>;
  private readonly drainSpans: Counter;
  private readonly insertErrors: Counter;
  private readonly apiRequests: Histogram<'method' | 'route' | 'code'>;
  private readonly alertEvaluations: Counter<'result'>;
  private readonly notifications: Counter<'outcome'>;

  constructor(sources: MetricSources) {
    const registers = [this.registry];
    const clock = sources.clock ?? Date.now;
    collectDefaultMetrics({ register: this.registry });
    // gauges named like counters, which promtool's lint refuses; the same figures are in nodejs_active_*
    for (const name of NON_COUNTER_TOTALS) this.registry.removeSingleMetric(name);
    this.otlpRequests = new Counter({
      name: 'telltale_otlp_requests_total',
      help: 'OTLP export requests answered, by protocol and outcome (accepted, partially_accepted, or why refused).',
      labelNames: ['protocol', 'outcome'],
      registers,
    });
    this.spansAccepted = new Counter({
      name: 'telltale_otlp_spans_accepted_total',
      help: 'Spans accepted and made durable in the spool.',
      labelNames: ['protocol'],
      registers,
    });
    this.spansRejected = new Counter({
      name: 'telltale_otlp_spans_rejected_total',
      help: 'Spans rejected one by one within accepted requests (partial success), by reason.',
      labelNames: ['reason'],
      registers,
    });
    this.spanLimitCuts = new Counter({
      name: 'telltale_otlp_span_limit_cuts_total',
      help: 'What the span limits cut from accepted spans: attribute values truncated, attributes, events and links dropped.',
      labelNames: ['kind'],
      registers,
    });
    this.refused = new Counter({
      name: 'telltale_refused_requests_total',
      help: 'Requests answered 429 (rate limited) or 503 (unavailable, spool full), by protocol (http, grpc, api).',
      labelNames: ['protocol', 'code'],
      registers,
    });
    for (const protocol of ['http', 'grpc'] as const) {
      this.otlpRequests.labels(protocol, 'accepted').inc(0);
      this.spansAccepted.labels(protocol).inc(0);
      for (const code of ['429', '503']) this.refused.labels(protocol, code).inc(0);
    }
    for (const [, reason] of REJECT_REASONS) this.spansRejected.labels(reason).inc(0);
    for (const [, kind] of CUT_KINDS) this.spanLimitCuts.labels(kind).inc(0);
    this.contentSpans = new Counter({
      name: 'telltale_content_spans_total',
      help: 'Spans whose content (prompts, messages, tool arguments and results) was kept whole, truncated to the per-span limit, or dropped because the project stores none.',
      labelNames: ['outcome'],
      registers,
    });
    for (const outcome of ['kept', 'truncated', 'dropped']) this.contentSpans.labels(outcome).inc(0);
    const quotaShare = sources.quotaShare;
    if (quotaShare !== undefined)
      new Gauge({
        name: 'telltale_ingest_quota_share',
        help: 'Split roles: the share of each project ingest quota this ingest process enforces (1 / live ingest processes).',
        registers,
        collect: gauge(quotaShare),
      });
    const workerHeap = sources.ingestWorkerHeapBytes;
    if (workerHeap !== undefined)
      new Gauge({
        name: 'telltale_ingest_worker_heap_bytes',
        help: "The V8 heaps of the ingest worker threads, bytes in memory (the main thread's are nodejs_heap_size_*).",
        registers,
        collect: gauge(workerHeap),
      });
    const engineMemory = sources.engineMemory;
    if (engineMemory !== undefined) {
      const read = oncePerScrape(engineMemory);
      for (const [name, help, figure] of ENGINE_GAUGES)
        new Gauge({
          name,
          help,
          registers,
          async collect(this: Gauge): Promise<void> {
            const memory = await read();
            // no embedded engine, or the read failed: the gauge shows no sample rather than a wrong one
            if (memory === undefined) this.reset();
            else this.set(figure(memory));
          },
        });
    }
    const memoryReturn = sources.memoryReturn;
    if (memoryReturn !== undefined) {
      new Counter({
        name: 'telltale_memory_heap_trims_total',
        help: "Times Node's allocator was asked to hand the memory it freed back to the system, by whether it had any.",
        labelNames: ['released'],
        registers,
        collect(this: Counter<'released'>): void {
          const { trims, released } = memoryReturn();
          this.reset();
          this.inc({ released: 'true' }, released);
          this.inc({ released: 'false' }, trims - released);
        },
      });
      new Counter({
        name: 'telltale_memory_return_seconds_total',
        help: "Seconds spent handing memory back to the system (Node's allocator, the engine library's pages).",
        registers,
        collect: counter(() => memoryReturn().seconds),
      });
      new Counter({
        name: 'telltale_memory_library_dropped_bytes_total',
        help: "Resident bytes of the embedded engine's library dropped from memory (pages not in use; read again from the page cache when used).",
        registers,
        collect: counter(() => memoryReturn().libraryBytes),
      });
    }
    new Gauge({
      name: 'telltale_spool_bytes',
      help: 'Bytes of the spool on disk, accepted writes included.',
      registers,
      collect: gauge(() => sources.spool().usedBytes),
    });
    new Gauge({
      name: 'telltale_spool_max_bytes',
      help: 'The spool size cap (--spool-max-bytes); past it, exports get 503.',
      registers,
      collect: gauge(() => sources.spool().capacityBytes),
    });
    new Gauge({
      name: 'telltale_spool_records',
      help: 'Spool records (one per accepted request) not yet stored.',
      registers,
      collect: gauge(() => sources.spool().records),
    });
    new Gauge({
      name: 'telltale_spool_backlog_spans',
      help: 'Spans acknowledged to clients and not yet in storage.',
      registers,
      collect: gauge(() => sources.spool().backlogSpans),
    });
    new Gauge({
      name: 'telltale_spool_oldest_record_age_seconds',
      help: 'Age of the oldest spool record not yet stored (0 when the spool is drained).',
      registers,
      collect: gauge(() => ageSeconds(sources.spool().oldestAtMs, clock())),
    });
    this.otlpStages = new Histogram({
      name: 'telltale_otlp_stage_duration_seconds',
      help: 'Where accepted OTLP export requests spend their time before the answer: read (the body), wait (for an ingest worker), process (decode, normalise, encode), commit (spool write and fsync).',
      labelNames: ['stage'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers,
    });
    this.drainBatch = new Histogram({
      name: 'telltale_drain_batch_duration_seconds',
      help: 'Time to insert one drained spool batch into storage.',
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    });
    this.drainSpans = new Counter({
      name: 'telltale_drain_spans_stored_total',
      help: 'Spans moved from the spool into storage.',
      registers,
    });
    this.insertErrors = new Counter({
      name: 'telltale_drain_insert_errors_total',
      help: 'Failed inserts of spool batches (each is retried; nothing is dropped).',
      registers,
    });
    new Gauge({
      name: 'telltale_run_facts_pending_runs',
      help: 'Runs whose facts wait to be finalised.',
      registers,
      collect: gauge(() => sources.runFacts().pendingRuns),
    });
    new Gauge({
      name: 'telltale_run_facts_oldest_pending_age_seconds',
      help: 'How long the longest-waiting run has waited to be finalised (0 when none waits).',
      registers,
      collect: gauge(() => ageSeconds(sources.runFacts().oldestPendingSinceMs, clock())),
    });
    new Counter({
      name: 'telltale_run_facts_finalised_runs_total',
      help: 'Runs whose facts were written, by how: computed from their spans at ingest, or read back by the SQL finaliser.',
      labelNames: ['path'],
      registers,
      collect(this: Counter<'path'>): void {
        const { incremental, sql } = sources.runFacts().finalised;
        this.reset();
        this.inc({ path: 'ingest' }, incremental);
        this.inc({ path: 'sql' }, sql);
      },
    });
    new Gauge({
      name: 'telltale_run_facts_catch_up_remaining_runs',
      help: 'Stale runs the catch-up after start has still to finalise.',
      registers,
      collect: gauge(() => sources.runFacts().catchUpRemainingRuns),
    });
    this.apiRequests = new Histogram({
      name: 'telltale_api_request_duration_seconds',
      help: 'API request latency by method, route pattern and status code.',
      labelNames: ['method', 'route', 'code'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.alertEvaluations = new Counter({
      name: 'telltale_alert_evaluations_total',
      help: 'Scheduled alert rule evaluations by result (breaching, ok, no_data, error).',
      labelNames: ['result'],
      registers,
    });
    this.notifications = new Counter({
      name: 'telltale_alert_notifications_total',
      help: 'Webhook delivery attempts by outcome: sent, retrying (failed, will retry), failed (given up or destination disabled).',
      labelNames: ['outcome'],
      registers,
    });
    for (const outcome of ['sent', 'retrying', 'failed']) this.notifications.labels(outcome).inc(0);
    for (const result of ['breaching', 'ok', 'no_data', 'error']) this.alertEvaluations.labels(result).inc(0);
  }

  /** One answered OTLP request: refused (by its error code), or accepted with what it held. */
  otlpDone(done: ExportDone): void {
    const { protocol, error, ingested } = done;
    if (error !== undefined) {
      this.otlpRequests.labels(protocol, OUTCOME_BY_CODE[error.code]).inc();
      const status = HTTP_STATUS_BY_CODE[error.code];
      if (status === 429 || status === 503) this.refused.labels(protocol, String(status)).inc();
      return;
    }
    if (ingested === undefined) return; // answered before it was an export (e.g. not a POST)
    for (const stage of STAGES) {
      const ms = done.stages?.[stage];
      if (ms !== undefined) this.otlpStages.labels(stage).observe(ms / 1000);
    }
    this.otlpRequests.labels(protocol, ingested.rejectedSpans > 0 ? 'partially_accepted' : 'accepted').inc();
    if (ingested.spanCount > 0) this.spansAccepted.labels(protocol).inc(ingested.spanCount);
    if (ingested.rejectedSpans > 0)
      for (const [key, reason] of REJECT_REASONS)
        if (ingested.rejectedBy[key] > 0) this.spansRejected.labels(reason).inc(ingested.rejectedBy[key]);
    for (const [key, kind] of CUT_KINDS)
      if (ingested.cut[key] > 0) this.spanLimitCuts.labels(kind).inc(ingested.cut[key]);
    const { kept, truncated, dropped } = ingested.content;
    if (kept - truncated > 0) this.contentSpans.labels('kept').inc(kept - truncated);
    if (truncated > 0) this.contentSpans.labels('truncated').inc(truncated);
    if (dropped > 0) this.contentSpans.labels('dropped').inc(dropped);
  }

  batchStored(spans: number, seconds: number): void {
    this.drainBatch.observe(seconds);
    this.drainSpans.inc(spans);
  }

  insertFailed(): void {
    this.insertErrors.inc();
  }

  /** One API request (`route` is the express pattern, or `unmatched`). */
  apiRequest(method: string, route: string, status: number, seconds: number): void {
    this.apiRequests.labels(method, route, String(status)).observe(seconds);
    if (status === 429 || status === 503) this.refused.labels('api', String(status)).inc();
  }

  alertEvaluated(result: 'breaching' | 'ok' | 'no_data' | 'error'): void {
    this.alertEvaluations.labels(result).inc();
  }

  notificationAttempt(outcome: 'delivered' | 'retry' | 'failed' | 'disabled'): void {
    this.notifications.labels(outcome === 'delivered' ? 'sent' : outcome === 'retry' ? 'retrying' : 'failed').inc();
  }

  /** The text exposition format. */
  async exposition(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}

function gauge(read: () => number): (this: Gauge) => void {
  return function collect(this: Gauge): void {
    this.set(read());
  };
}

/** A counter's collect: its total since start, as the source keeps it. */
function counter(read: () => number): (this: Counter) => void {
  return function collect(this: Counter): void {
    this.reset();
    this.inc(read());
  };
}

/** One read shared by the gauges of one scrape: a call within a second of the last reuses its answer; a failed read gives undefined. */
function oncePerScrape<T>(read: () => Promise<T | undefined>): () => Promise<T | undefined> {
  let last: { atMs: number; value: Promise<T | undefined> } | undefined;
  return () => {
    const now = performance.now();
    if (last === undefined || now - last.atMs > 1000) last = { atMs: now, value: read().catch(() => undefined) };
    return last.value;
  };
}

function ageSeconds(sinceMs: number | undefined, nowMs: number): number {
  return sinceMs === undefined ? 0 : Math.max(0, (nowMs - sinceMs) / 1000);
}
