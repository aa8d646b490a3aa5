/**
 * The chDB side of the ingest bench, in a child process of its own (chDB
 * binds one data directory per process, and the bench process must not load
 * it while the server under test owns another):
 *
 *   node ingestStoreChild.js verify <dataDir>
 *     counts what the server stored: count(), uniqExact(span_id, trace_id), runs; span_content's rows
 *   node ingestStoreChild.js ceiling <poolFile> <rows> <batchRows> <dataDir> <firstSend>
 *     decodes and encodes `rows` spans of the pool's requests (untimed, but
 *     the decode cost on this one thread is reported: the fused protobuf
 *     path that ingest workers run, alone over all the requests with each
 *     output dropped as a worker hands it on, then the object path's phases
 *     on the same requests for comparison), then times
 *     only `store.insertSpanBatches` of `batchRows`-span batches into a fresh store
 *
 * Prints one JSON line on stdout.
 */
import { decodeTraceRequestProto, normaliseRequest, processExport } from '@telltale/collector';
import { Store, type SpanRecord } from '@telltale/store';
import { computeRequestFacts, encodeSpanRecordBatch } from '@telltale/store/encode';
import type { RequestFacts } from '@telltale/collector';
import { StoreInspector } from '@telltale/store/testing';
import { PayloadPool } from './PayloadPool.js';

export interface VerifyResult {
  count: number;
  unique: number;
  runs: number;
  /** The engine's version(). */
  version: string;
  /** `span_content`: rows, distinct spans, text bytes, rows cut; span rows still holding content attributes. */
  content: { rows: number; uniqueSpans: number; textBytes: number; truncated: number; spanRowsWithContent: number };
}

export interface CeilingResult {
  rows: number;
  batches: number;
  insertS: number;
  rowsPerS: number;
  /** CPU of this process (all threads, chDB's too) while inserting, seconds. */
  insertCpuS: number;
  /** One thread, untimed part of the ceiling: what an ingest worker does per span, in CPU seconds (its GC helpers' too). */
  decode: {
    spans: number;
    /** processExport (the fused protobuf path): body to spool payload parts, seconds. */
    fusedS: number;
    /** Spool payload bytes per span of the fused path (metadata, content and Arrow message). */
    spoolBytesPerSpan: number;
    /** The object path on the same requests: decodeTraceRequestProto, normaliseRequest, encodeSpanRecordBatch. */
    decodeS: number;
    normaliseS: number;
    encodeS: number;
    spansPerS: number;
    bytesPerSpan: number;
    protoBytesPerSpan: number;
  };
  /** The same rows as one record batch per insert instead of one per request (how much the message count costs). */
  singleBatchRowsPerS: number;
  storedRows: number;
  version: string;
  /**
   * The run-facts finaliser over the runs just inserted (what the server's
   * 1 s background flush does for every run it stores): runs, wall and CPU
   * seconds of `store.runFacts.flush()`.
   */
  finaliser: { runs: number; wallS: number; cpuS: number };
  /**
   * The server's facts for the same rows: those the ingest workers compute
   * for the runs a request holds whole (computeRequestFacts on each
   * request's Arrow message, one thread: `computeCpuS`), then what the drain
   * does with them once the spans are stored (`RunFacts.addRequestFacts`:
   * held for a few batches, then the span count check and the writes:
   * `writeCpuS`, all threads); the
   * runs written, and the runs left to the SQL finaliser.
   */
  workerFacts: { runs: number; leftRuns: number; computeCpuS: number; writeCpuS: number; writeWallS: number };
}

async function verify(dataDir: string): Promise<VerifyResult> {
  const store = await Store.open({ kind: 'embedded', dataDir }, { reconcile: false });
  try {
    const inspector = new StoreInspector(store);
    const totals = await inspector.spanTotals();
    const content = await inspector.contentTotals();
    return { count: totals.rows, unique: totals.uniqueSpans, runs: totals.runs, version: totals.version, content };
  } finally {
    await store.close();
  }
}

/** CPU seconds this process has used (before the store opens: the decoding thread and its GC helpers). */
function cpuS(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
}

async function timeInserts(store: Store, batches: Uint8Array[][]): Promise<{ s: number; cpuS: number }> {
  const cpu = process.cpuUsage();
  const t = performance.now();
  for (const messages of batches) await store.insertSpanBatches(messages, []);
  const s = (performance.now() - t) / 1000;
  const used = process.cpuUsage(cpu);
  return { s, cpuS: (used.user + used.system) / 1e6 };
}

async function ceiling(
  poolFile: string,
  rows: number,
  batchRows: number,
  dataDir: string,
  firstSend: number,
): Promise<CeilingResult> {
  const pool = PayloadPool.load(poolFile, firstSend);
  const nowMs = Date.now();
  const spansPerRequest = pool.templates[0]?.spans ?? 1;
  // as the drainer does: one insert of ~batchRows spans, made of the requests' record batches
  const perBatch = Math.max(1, Math.round(batchRows / spansPerRequest));
  const batches: Uint8Array[][] = [];
  // the same spans, one record batch per insert
  const single: Uint8Array[][] = [];
  let group: SpanRecord[] = [];
  const decode = {
    spans: 0,
    fusedS: 0,
    spoolBytesPerSpan: 0,
    decodeS: 0,
    normaliseS: 0,
    encodeS: 0,
    spansPerS: 0,
    bytesPerSpan: 0,
    protoBytesPerSpan: 0,
  };
  let arrowBytes = 0;
  let protoBytes = 0;
  let spoolBytes = 0;
  // whole batches: at least `rows` spans, in full inserts of perBatch requests. First the fused path alone,
  // timed as an ingest worker runs it: one request at a time, its output handed on (not kept here: a
  // gigabyte of kept output makes the collector's own pauses and GC measure this process, not the path),
  // and without the object path's work in between (it would pollute caches and type feedback)
  const timedPool = PayloadPool.load(poolFile, firstSend);
  for (let i = 0, spans = 0; spans < rows || i % perBatch !== 0; i++) {
    const { body } = timedPool.next();
    const t = cpuS();
    const processed = processExport({ body, encoding: 'proto', projectId: 'bench', nowMs }, undefined);
    decode.fusedS += cpuS() - t;
    spans += processed.spanCount;
  }
  // then the same sends again, untimed, their Arrow messages kept for the inserts
  const fusedMessages: Uint8Array[] = [];
  const fusedSpans: number[] = [];
  for (let i = 0; decode.spans < rows || i % perBatch !== 0; i++) {
    const { body } = pool.next();
    const processed = processExport({ body, encoding: 'proto', projectId: 'bench', nowMs }, undefined);
    for (const part of processed.parts) spoolBytes += part.length;
    // the Arrow message is the last part (exportPayload.ts); it is what the drainer inserts
    fusedMessages.push(processed.parts.at(-1) ?? new Uint8Array(0));
    fusedSpans.push(processed.spanCount);
    decode.spans += processed.spanCount;
    protoBytes += body.length;
  }
  // then the object path on the same requests (a second pool gives the same sends), checked against the fused path
  const again = PayloadPool.load(poolFile, firstSend);
  for (let i = 0; i < fusedMessages.length; i++) {
    const { body } = again.next();
    let t = cpuS();
    const request = decodeTraceRequestProto(body);
    decode.decodeS += cpuS() - t;
    t = cpuS();
    const { spans } = normaliseRequest(request, 'bench', { nowMs });
    decode.normaliseS += cpuS() - t;
    t = cpuS();
    const message = encodeSpanRecordBatch(spans);
    decode.encodeS += cpuS() - t;
    const fusedMessage = fusedMessages[i]!;
    if (fusedSpans[i] !== spans.length || !Buffer.from(fusedMessage).equals(message))
      throw new Error('the fused path and the object path encoded different record batches');
    arrowBytes += message.length;
    if (i % perBatch === 0) batches.push([]);
    batches[batches.length - 1]!.push(fusedMessage);
    group.push(...spans);
    if (i % perBatch === perBatch - 1) {
      single.push([encodeSpanRecordBatch(group)]);
      group = [];
    }
  }
  decode.spansPerS = decode.spans / decode.fusedS;
  decode.spoolBytesPerSpan = spoolBytes / decode.spans;
  decode.bytesPerSpan = arrowBytes / decode.spans;
  decode.protoBytesPerSpan = protoBytes / decode.spans;

  const store = await Store.open({ kind: 'embedded', dataDir });
  try {
    const timed = await timeInserts(store, batches);
    const inspector = new StoreInspector(store);
    await inspector.truncate(['spans']);
    const singleTimed = await timeInserts(store, single);
    const totals = await inspector.spanTotals();
    const runs = await inspector.storedRuns();
    for (const r of runs) store.runFacts.mark(r.projectId, r.runId);
    const cpu = process.cpuUsage();
    const t = performance.now();
    await store.runFacts.flush();
    const used = process.cpuUsage(cpu);
    const finaliser = {
      runs: runs.length,
      wallS: (performance.now() - t) / 1000,
      cpuS: (used.user + used.system) / 1e6,
    };
    const workerFacts = await timeWorkerFacts(store, batches);
    return {
      rows: decode.spans,
      batches: batches.length,
      insertS: timed.s,
      rowsPerS: decode.spans / timed.s,
      insertCpuS: timed.cpuS,
      decode,
      singleBatchRowsPerS: decode.spans / singleTimed.s,
      storedRows: totals.rows,
      version: totals.version,
      finaliser,
      workerFacts,
    };
  } finally {
    await store.close();
  }
}

/**
 * The server's run facts for stored batches: computed per request as an
 * ingest worker does (timed on this thread), then handed to the store as the
 * drain does after each insert, their runs marked first (timed, all threads).
 */
async function timeWorkerFacts(store: Store, batches: Uint8Array[][]): Promise<CeilingResult['workerFacts']> {
  let computeCpuS = 0;
  const perBatch: { runs: { projectId: string; runId: string }[]; facts: RequestFacts[] }[] = [];
  for (const messages of batches) {
    const facts: RequestFacts[] = [];
    const cpu = process.cpuUsage();
    for (const message of messages) facts.push({ projectId: 'bench', ...computeRequestFacts('bench', message) });
    const used = process.cpuUsage(cpu);
    computeCpuS += (used.user + used.system) / 1e6;
    const runs = facts.flatMap((f) => f.runs.map((r) => ({ projectId: 'bench', runId: r.runId })));
    perBatch.push({ runs, facts });
  }
  const written = store.runFacts.finalised.incremental;
  const cpu = process.cpuUsage();
  const t = performance.now();
  for (const { runs, facts } of perBatch) {
    store.runFacts.markRuns(runs);
    await store.runFacts.addRequestFacts(facts);
  }
  // the facts still held (RunFacts holds them until they cover two drain batches)
  await store.runFacts.flush();
  const used = process.cpuUsage(cpu);
  return {
    runs: store.runFacts.finalised.incremental - written,
    leftRuns: store.runFacts.pendingRuns(),
    computeCpuS,
    writeCpuS: (used.user + used.system) / 1e6,
    writeWallS: (performance.now() - t) / 1000,
  };
}

const [command, ...args] = process.argv.slice(2);
try {
  let out: unknown;
  if (command === 'verify') out = await verify(args[0]!);
  else if (command === 'ceiling')
    out = await ceiling(args[0]!, Number(args[1]), Number(args[2]), args[3]!, Number(args[4]));
  else throw new Error(`unknown command ${command}`);
  process.stdout.write(`${JSON.stringify(out)}\n`);
  process.exit(0);
} catch (err) {
  console.error(err);
  process.exit(1);
}
