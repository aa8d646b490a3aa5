import type { RequestFactRows } from '@telltale/store/encode';
import type { LoopSignals } from '../loops/loopSignals.js';
import type { SpanLimits } from '../normalise/spanLimits.js';
import type { SpoolRecordConverter } from '../spool/SpoolDrainer.js';
import type { SpoolVersionError } from '../spool/SpoolVersionError.js';
import type { SpoolDirLock } from '../spool/spoolLock.js';
import type { ExportDone } from './ExportDone.js';

/**
 * Stores Arrow record batch messages as one insert, idempotent for a repeated
 * token, then marks the runs, then stores the spans' content (its own table)
 * from `contents`, span_content Arrow record batch messages (one ArrowStream
 * insert, as the spans). The messages are read as the insert goes (a spool
 * record at a time) and `runs`, `contents` and `facts` fill as they pass:
 * read them only after the messages. Each message is a view of a buffer the
 * drain reuses: the insert must be done with it (written out, or copied)
 * before it takes the next (Store.insertSpanBatches is). `facts` holds, per request, the facts
 * its ingest worker computed for the runs it holds whole (when
 * `CollectorStorageOptions.runFacts`, and when they were ready: see there).
 */
export type InsertSpanBatches = (
  messages: AsyncIterable<Uint8Array>,
  runs: ReadonlyArray<{ projectId: string; runId: string }>,
  deduplicationToken: string,
  contents: readonly Uint8Array[],
  facts: ReadonlyArray<RequestFacts>,
) => Promise<void>;

/** The run facts one request's ingest worker computed (computeRequestFacts), with their project. */
export interface RequestFacts extends RequestFactRows {
  projectId: string;
}

/** The durable log requests are acknowledged from. */
export interface CollectorSpoolOptions {
  dir: string;
  /** Cap on the spool's bytes on disk; past it, exports are refused for now (default 1 GiB). */
  maxBytes?: number;
  /** Segment size (default 16 MiB). */
  segmentBytes?: number;
  /** The directory's lock, taken beforehand (lockSpoolDir): the collector's spool releases it. */
  lock?: SpoolDirLock;
}

/** Where the spool drains to. */
export interface CollectorStorageOptions {
  insert: InsertSpanBatches;
  /** Spans per insert (default DEFAULT_DRAIN_BATCH_SPANS), and DRAIN_BATCH_BYTES_PER_SPAN spool bytes per span at most. */
  maxBatchSpans?: number;
  /** Runs between a batch's insert and the spool's ack: fault tests kill the process here. */
  afterInsert?: () => void;
  /**
   * Ingest workers compute the facts of the runs a request holds whole
   * (computeRequestFacts) after answering for it, when no other request
   * waits for them, and the drain hands them to `insert` with the request's
   * spans (RequestFactsBuffer: in memory, not spooled). A request whose
   * facts were not ready in time, were dropped, or were lost to a restart
   * has none: its runs are finalised by SQL. Default false.
   */
  runFacts?: boolean;
  /**
   * Spool payload converters to the spans Arrow schema version of this build,
   * by the version they read (default: none). Spooled records of another
   * version without one are refused (see `observe.onSpoolRefused`).
   */
  converters?: ReadonlyMap<number, SpoolRecordConverter>;
}

/** What one request and one span may carry, and what is held in memory. */
export interface CollectorLimits {
  /** Per span and per request (default DEFAULT_SPAN_LIMITS). */
  spans?: SpanLimits;
  /** Largest body (HTTP) or message (gRPC) after decompression (default DEFAULT_MAX_BODY_BYTES). */
  maxBodyBytes?: number;
  /** Bytes of bodies each receiver holds in memory at once; past it, 503 / UNAVAILABLE (default 256 MiB). */
  maxInFlightBytes?: number;
  /** Seconds a client is told to wait when the data cannot be kept now (default 2). */
  retryAfterSeconds?: number;
  /**
   * Spans acknowledged and not yet stored past which a request waits (up to
   * 1 s) for the drain before it is processed: under sustained overload,
   * acknowledgements keep to the pace of storage instead of filling the spool
   * (default four drain batches: DEFAULT_BACKLOG_HOLD_SPANS with the default batch; 0 never holds).
   */
  backlogHoldSpans?: number;
}

/** Who may send, and how much. */
export interface CollectorPolicy {
  /**
   * The caller's project from its `authorization` (the HTTP header, or the
   * gRPC metadata of that name), or undefined to refuse it (401,
   * UNAUTHENTICATED); may throw a TelltaleError to answer with its status
   * (e.g. FORBIDDEN). Runs before the body is read. Default: everything is
   * project `default`.
   */
  authenticate?: (authorization: string | undefined) => string | undefined | Promise<string | undefined>;
  /**
   * Admission per project after decoding (e.g. an ingest quota): undefined
   * admits the spans; otherwise the request is refused as rate limited (429,
   * RESOURCE_EXHAUSTED) with this retry delay.
   */
  admit?: (projectId: string, spanCount: number) => { retryAfterSeconds: number } | undefined;
  /**
   * Whether the project keeps the content of its spans (prompts, messages,
   * tool arguments and results); false drops it at ingest, counted in
   * `ExportDone.ingested.content.dropped`. Default: kept.
   */
  contentStored?: (projectId: string) => boolean | Promise<boolean>;
}

/** Hooks that hear what the collector does; none of them can fail a request. */
export interface CollectorObservers {
  /**
   * Every export request once it is answered (accepted, partly accepted or
   * refused) with what it held: access logs, operators' counters.
   */
  onDone?: (done: ExportDone) => void;
  /** The loop signals of every acknowledged request (live loop detection); its errors are ignored. */
  onAccepted?: (loops: LoopSignals) => void;
  /** A failed insert (the batch stays in the spool and is retried). */
  onInsertError?: (err: unknown, attempt: number) => void;
  /** Each batch stored: its spans and how long its insert took. */
  onBatchStored?: (spans: number, seconds: number) => void;
  /**
   * Records of a spans schema version this build neither stores nor converts
   * reached the head of the spool: they are not stored, stay on disk, and the
   * drain stops there until the operator acts (the error says how).
   */
  onSpoolRefused?: (err: SpoolVersionError) => void;
}

export interface CollectorOptions {
  spool: CollectorSpoolOptions;
  storage: CollectorStorageOptions;
  /** Decoding worker threads; 0 decodes on the event loop (default: cores − 1, 1 to 4). */
  workers?: number;
  limits?: CollectorLimits;
  policy?: CollectorPolicy;
  observe?: CollectorObservers;
}
