import type { TelltaleErrorCode } from '@telltale/semconv';
import type { RequestFactRows } from '@telltale/store/encode';
import type { ProcessedExport } from './processExport.js';

/** A worker's answer to one job. */
export type WorkerReply =
  | {
      id: number;
      ok: true;
      result: ProcessedExport;
      /** Time the worker spent on the job, ms. */ ms: number;
      /** The worker's V8 heap, bytes in memory, after it. */ heapBytes: number;
    }
  | { id: number; ok: false; code: TelltaleErrorCode; message: string };

/** The run facts of a job, sent after its reply (`runs` empty: none). */
export interface WorkerFacts extends RequestFactRows {
  factsKey: string;
  projectId: string;
}
