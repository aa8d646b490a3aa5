import type { CeilingResult } from './ingestStoreChild.js';
import type { IngestReport } from './runIngestBench.js';

const int = (n: number): string => Math.round(n).toLocaleString('en-US');
const mib = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

/** Closed loop: a fixed count in flight; open loop: an offered rate, latency from each arrival. */
function loadShape(r: IngestReport): string {
  const offered = r.options.offeredSpansPerS;
  if (offered === undefined) return `${r.options.concurrency} requests in flight (closed loop)`;
  return `open loop: requests arriving at ${int(offered)} spans/s on average (Poisson), whatever the answers, latency counted from each arrival (at most ${r.load.peakInFlight} in flight)`;
}

/** The generated part of bench/README.md's "Ingest throughput" section. */
export function renderIngestReport(r: IngestReport): string {
  const o = r.options;
  const lines = [
    `Measured ${r.measuredAt} · \`${r.command}\``,
    '',
    `- **Machine**: ${r.machine.nproc} CPUs (${r.machine.cpuModel}), ${r.machine.memoryGiB.toFixed(0)} GiB; Node ${r.machine.node}; ClickHouse ${r.machine.clickhouse} (chDB, embedded). Server, load client and ceiling share these ${r.machine.nproc} cores.`,
    `- **Load conditions**: the machine is shared. 1-minute load average ${r.loadAverage.before.toFixed(2)} before, ${r.loadAverage.after.toFixed(2)} after (the bench's own load included). ${roundsLine(r)}`,
    `- **Payload**: OTLP/proto export requests of ${r.payload.spansPerRequest} spans (the BatchSpanProcessor's default maxExportBatchSize), ${r.payload.runsPerRequest.toFixed(1)} whole agent runs of 50–100 spans each, ${(r.payload.bodyBytes / 1024).toFixed(0)} KiB (${(r.payload.bodyBytes / r.payload.spansPerRequest).toFixed(0)} bytes/span); made with the OpenTelemetry JS SDK and serialised by \`ProtobufTraceSerializer.serializeRequest\` (the bytes \`@opentelemetry/exporter-trace-otlp-proto\` sends). ${r.payload.templates} templates, every send with fresh trace, span and run ids.`,
    `- **Load**: ${loadShape(r)} over keep-alive loopback connections from the bench process (${r.clientCores.toFixed(2)} cores of client CPU during the window); ${o.warmupSeconds} s warm-up, then ${o.seconds} s timed. Server: \`telltale start --log-level warn${o.ingestWorkers === undefined ? '' : ` --ingest-workers ${o.ingestWorkers}`}${o.serverArgs.length > 0 ? ` ${o.serverArgs.join(' ')}` : ''}\`${o.serverNodeArgs.length > 0 ? ` under \`node ${o.serverNodeArgs.join(' ')}\`` : ''}, spool fsync on (always).`,
    `- **Acknowledged per second** since the load began (warm-up included): ${r.load.ackTimeline.map((n) => `${Math.round(n / 1000)}k`).join(' ')}${r.first503S === undefined ? '' : `; first 503 after ${r.first503S.toFixed(1)} s`}.`,
    `- **Acknowledged**: ${int(r.load.windowAckedSpans)} spans in ${o.seconds} s (${int(r.load.windowAckedRequests)} requests) = **${int(r.ackedSpansPerS)} spans/s**; latency per request p50 **${r.latencyMs.p50.toFixed(0)} ms**, p99 **${r.latencyMs.p99.toFixed(0)} ms** (max ${r.latencyMs.max.toFixed(0)} ms); 503s (retried after 50 ms): ${int(r.load.windowRetries503)} in the window, ${int(r.load.retries503)} in all${r.load.abandoned503 > 0 ? `, ${int(r.load.abandoned503)} requests still refused 20 s after the window (given up)` : ''}; other failures: ${r.load.otherFailures.length === 0 ? 'none' : r.load.otherFailures.map((f) => `${f.count}× ${f.status}`).join(', ')}.`,
    ...openLoopLines(r),
    `- **Where a request's time goes** on the server (mean ms per accepted request in the window): ${r.stagesMs.length === 0 ? 'not measured' : r.stagesMs.map((x) => `${x.stage} ${x.meanMs.toFixed(1)}`).join(', ')}; the rest of the client's latency is the connection and the answer.`,
    `- **Server process**: peak RSS **${r.server.peakRssMiB.toFixed(0)} MiB** (VmHWM; sampled at most ${r.server.peakAnonMiB.toFixed(0)} MiB anonymous — Node's and the engine's heaps — and ${r.server.peakFileMiB.toFixed(0)} MiB file-backed, chiefly the engine's mapped library${engineMemoryText(r)}); CPU ${r.server.cpuCores.toFixed(2)} cores during the window (${r.server.threadCores
      .slice(0, 8)
      .map((t) => `${t.thread} ${t.cores.toFixed(2)}`)
      .join(', ')}).`,
    `- **Drain**: spool backlog (acknowledged, not yet in ClickHouse) ${mib(r.server.backlogBytes.start)} at the window's start, peak ${mib(r.server.backlogBytes.peak)}, ${mib(r.server.backlogBytes.end)} at its end; the drainer stored ≈ ${int(r.windowDrainSpansPerS)} spans/s during the window; everything acknowledged was in ClickHouse **${(r.catchUpMs / 1000).toFixed(1)} s** after the last acknowledgement (${int(r.catchUpSpansPerS)} spans/s while catching up). Graceful shutdown then took ${(r.server.shutdownMs / 1000).toFixed(1)} s (exit code ${r.server.exitCode}).`,
    ...runFactsLines(r),
    `- **Sustained**: the lower of the acknowledged and the stored rate in the window (a growing spool buffers acknowledgements, it does not sustain them): **${int(r.sustainedSpansPerS)} spans/s**. Server CPU per sustained span: ${cpuPerSpan(r)}.`,
    `- **Stored**: after the server exited, \`SELECT count(), uniqExact(span_id, trace_id) FROM spans\` on its data directory: ${int(r.stored.count)} spans, ${int(r.stored.unique)} distinct, ${int(r.stored.runs)} runs; acknowledged ${int(r.load.ackedSpans)} spans (warm-up, window and the in-flight tail), ${int(r.load.ackedRuns)} runs${r.payload.contentBytes > 0 ? `; \`span_content\`: ${int(r.stored.content.rows)} rows for ${int(r.load.ackedContentSpans)} acknowledged llm spans, ${int(r.stored.content.spanRowsWithContent)} span rows still holding content` : ''}: ${r.correct ? '**no loss, no duplicates**' : '**MISMATCH**'}.`,
    ...(r.ceiling === undefined
      ? ['- **Ceiling**: not measured (`--ceiling-rows 0`).']
      : ceilingLines(r.ceiling, r.ratio)),
    '',
    '| Target | measured | target | verdict |',
    '| --- | ---: | --- | --- |',
    ...r.targets.map((t) => `| ${t.name} | ${t.value} | ${t.target} | ${t.met ? '✅' : '❌'} |`),
    '',
    r.targets.every((t) => t.met)
      ? 'Every target met.'
      : `Missed: ${r.targets
          .filter((t) => !t.met)
          .map((t) => t.name)
          .join('; ')}.`,
  ];
  return lines.join('\n');
}

/** The open-loop latency round, when one ran (runIngestRounds). */
function openLoopLines(r: IngestReport): string[] {
  const o = r.openLoop;
  if (o === undefined) return [];
  const stages = o.stagesMs.map((x) => `${x.stage} ${x.meanMs.toFixed(1)}`).join(', ');
  return [
    `- **Acknowledgement latency under an offered load** (the closed loop's latency above is its ${r.options.concurrency} requests in flight over its rate, Little's law): one more round, against a fresh server, with requests arriving at **${int(o.offeredSpansPerS)} spans/s** (${(o.share * 100).toFixed(0)}% of the sustained rate; Poisson arrivals, whatever the answers; latency from each arrival; ${Math.min(r.options.seconds, 60)} s timed): ${int(o.ackedSpansPerS)} spans/s acknowledged, p50 **${o.latencyMs.p50.toFixed(0)} ms**, p99 **${o.latencyMs.p99.toFixed(0)} ms** (max ${o.latencyMs.max.toFixed(0)} ms); mean ms per request ${stages === '' ? 'not measured' : stages}; peak RSS ${o.peakRssMiB.toFixed(0)} MiB; ${o.correct ? 'stored = acknowledged' : '**MISMATCH**'}.`,
  ];
}

/** Which round the figures come from. */
function roundsLine(r: IngestReport): string {
  const rounds = r.rounds ?? [];
  if (rounds.length <= 1) return 'One round: the figures below are from it.';
  const list = rounds.map(
    (x) =>
      `${int(x.sustainedSpansPerS)} (acknowledged ${int(x.ackedSpansPerS)}, stored ${int(x.storedSpansPerS)}, ${x.serverCpuUsPerSpan.toFixed(1)} CPU-µs/span, peak RSS ${x.peakRssMiB.toFixed(0)} MiB${x.correct ? '' : ', **LOSS OR DUPLICATES**'})`,
  );
  return `${rounds.length} rounds, each against a fresh server; the figures below are from the round with the median sustained rate. Sustained spans/s per round, in order: ${list.join('; ')}.`;
}

/** Server CPU-µs per sustained span, in all and for the busiest threads (node#<tid>: the ingest worker, then libuv's pool). */
function cpuPerSpan(r: IngestReport): string {
  const us = (cores: number): string => ((cores / r.sustainedSpansPerS) * 1e6).toFixed(1);
  const parts = r.server.threadCores.slice(0, 6).map((t) => `${t.thread} ${us(t.cores)}`);
  return `**${us(r.server.cpuCores)} µs** (${parts.join(', ')})`;
}

/** Microseconds per item, two decimals. */
function us(seconds: number, items: number): string {
  return ((seconds / items) * 1e6).toFixed(2);
}

function ceilingLines(c: CeilingResult, ratio: number): string[] {
  return [
    `- **Ceiling** (same run, a child process, a fresh embedded store): the same kind of requests decoded, normalised and encoded beforehand (one Arrow record batch per request, untimed), then only \`store.insertSpanBatches\` timed, ${int(c.rows)} rows in ${c.batches} inserts of ≈ ${int(c.rows / c.batches)} rows (as the drainer batches): **${int(c.rowsPerS)} rows/s** (${c.insertS.toFixed(1)} s, ${(c.insertCpuS / c.insertS).toFixed(2)} cores). The same rows as one record batch per insert: ${int(c.singleBatchRowsPerS)} rows/s. Ingest reached **${(ratio * 100).toFixed(0)}%** of the ceiling. The SQL run-facts finaliser over those rows' ${int(c.finaliser.runs)} runs (\`store.runFacts.flush()\`, what the server's background does for the runs whose facts did not come with their spans, once they settle): ${c.finaliser.wallS.toFixed(1)} s wall, ${((c.finaliser.cpuS / c.rows) * 1e6).toFixed(1)} CPU-µs per span (${((c.finaliser.cpuS / c.finaliser.runs) * 1000).toFixed(2)} CPU-ms per run) against ${((c.insertCpuS / c.rows) * 1e6).toFixed(1)} CPU-µs per span for the insert. The server's own way for the same rows: the ingest workers compute the facts of the runs a request holds whole (${int(c.workerFacts.runs)} of the runs; ${int(c.workerFacts.leftRuns)} left to the SQL finaliser), ${((c.workerFacts.computeCpuS / c.rows) * 1e6).toFixed(1)} CPU-µs per span on one thread, and the drain, once the spans are stored, checks their span counts and writes them two batches at a time, ${((c.workerFacts.writeCpuS / c.rows) * 1e6).toFixed(1)} CPU-µs per span (${c.workerFacts.writeWallS.toFixed(1)} s wall): **${(((c.workerFacts.computeCpuS + c.workerFacts.writeCpuS) / c.rows) * 1e6).toFixed(1)} CPU-µs per span** in all.`,
    `- **Decode cost** (one thread, in the ceiling process, what an ingest worker does per request): the fused protobuf path (body to spool payload) ${us(c.decode.fusedS, c.decode.spans)} CPU-µs/span, ${int(c.decode.spansPerS)} spans/s, ${((c.decode.fusedS / c.decode.spans / (c.insertCpuS / c.rows)) * 100).toFixed(0)}% of the insert's ${us(c.insertCpuS, c.rows)} CPU-µs per span; the object path on the same requests: protobuf decode ${us(c.decode.decodeS, c.decode.spans)}, normalise ${us(c.decode.normaliseS, c.decode.spans)}, Arrow encode ${us(c.decode.encodeS, c.decode.spans)} CPU-µs/span. ${c.decode.spoolBytesPerSpan.toFixed(0)} spool bytes/span (${c.decode.bytesPerSpan.toFixed(0)} of them the Arrow message; ${c.decode.protoBytesPerSpan.toFixed(0)} protobuf bytes/span on the wire).`,
  ];
}

/** Which path wrote the run facts by the time the spool was drained (the server's counter). */
function runFactsLines(r: IngestReport): string[] {
  const paths = r.runFactsAtCatchUp;
  if (paths === undefined) return [];
  const written = paths.ingest + paths.sql;
  const share = written > 0 ? ` (${((100 * paths.ingest) / written).toFixed(0)}% from the workers)` : '';
  return [
    `- **Run facts** when the spool was drained, of ${int(r.stored.runs)} runs stored: ${int(paths.ingest)} computed by the ingest workers from their requests, ${int(paths.sql)} by the SQL finaliser${share}; the graceful shutdown finalised any still pending.`,
  ];
}

/** The engine allocator's highest figures scraped from /metrics, as a clause of the server line ('' when none was scraped). */
function engineMemoryText(r: IngestReport): string {
  const e = r.server.engine;
  if (e === undefined) return '';
  return `; the engine's allocator, scraped from /metrics every second: at most ${e.peakResidentMiB.toFixed(0)} MiB resident (in use, or freed and kept) and at most ${e.peakAllocatedMiB.toFixed(0)} MiB in use`;
}
