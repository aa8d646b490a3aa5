import type { TelltaleError } from '@telltale/semconv';
import type { ProcessedExport } from './processExport.js';

/** What an accepted request held, as processed: spans kept, rejected by reason, values cut by limit. */
export type IngestedExport = Pick<ProcessedExport, 'spanCount' | 'rejectedSpans' | 'rejectedBy' | 'cut' | 'content'>;

/** Filled in by a receiver and the intake as a request goes, for its ExportDone. */
export interface ExportProgress {
  /** Undefined until the key was checked (and when it was refused). */
  projectId: string | undefined;
  /** Spans accepted from the request once decoded (0 when it was refused before decoding). */
  spans: number;
  /** Body bytes received (after decompression for gRPC). */
  bytes: number;
  /** Where the request's time went, ms, as far as it got (latency breakdown: metrics). */
  stages?: ExportStages;
  /** Set once the accepted spans are durable (or the request had none to keep). */
  ingested?: IngestedExport;
}

/** A request's time by stage, ms. */
export interface ExportStages {
  /** Reading (and decompressing) the body. */
  read?: number;
  /** Held before processing while the spool's backlog was past its hold limit (storage behind). */
  hold?: number;
  /** Waiting for an ingest worker: queued, or behind another job in the worker, and the messages to and fro. */
  wait?: number;
  /** Decoding, normalising and encoding on the worker. */
  process?: number;
  /** The spool append: waiting for the write in flight, then its write and fsync (group commit). */
  commit?: number;
}

/** One answered export request. */
export interface ExportDone extends ExportProgress {
  protocol: 'http' | 'grpc';
  /** HTTP status, or the gRPC status code (0: OK). */
  status: number;
  durationMs: number;
  /** Why the request was refused (absent when it was accepted). */
  error?: TelltaleError;
}

/** A new request's progress. */
export function startExportProgress(): ExportProgress {
  return { projectId: undefined, spans: 0, bytes: 0 };
}
