#!/usr/bin/env node
// The capacity model of docs/scaling.md, computed from the benchmarks' own
// output: bench/results/ingest.json (`npm run bench:ingest -- --json …`) and
// the generated results block of bench/README.md (`npm run bench`). `npm run
// capacity` rewrites the block between the markers in docs/scaling.md; a test
// checks the committed block equals this script's output.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const CAPACITY_START = '<!-- capacity:start -->';
export const CAPACITY_END = '<!-- capacity:end -->';

/** Rates modelled, spans per second. */
const RATES = [10_000, 100_000, 1_000_000, 10_000_000];

/** Assumptions, not measurements: each is printed in the table of assumptions. */
const ASSUME = {
  retentionDays: 30,
  replicas: 2,
  /** CPU a collector pod may use before the autoscaler adds one (the HPA's target). */
  collectorUtilisation: 0.65,
  collectorPodCores: 2,
  /** Each replica writes and merges the parts of its shard: the insert and merge cost is paid per replica. */
  insertCostPerReplica: 1,
  /**
   * Runs that arrive whole in one export request (root and all): the ingest
   * workers compute their facts and the engine only checks and writes them.
   * The bench's runs all do; a run spread over requests is read back by the
   * SQL finaliser instead.
   */
  wholeRunShare: 1,
  clickhouseNodeCores: 32,
  clickhouseNodeUtilisation: 0.6,
  clickhouseNodeDiskTiB: 8,
  diskFillTarget: 0.75,
  /** Dashboard loads per second across all users, and the window each one reads. */
  dashboardLoadsPerS: 0.1,
  dashboardWindowHours: 1,
};

/** Published sizing of peers, as they state it. */
const PEERS = {
  clickstackBytesPerVcpu: 10e6, // ~1 vCPU per 10 MB/s of uncompressed ingest
  tempoBytesPer2Cores: 10e6, // a 2-core distributor per 10 MB/s
  otelSpansPerCore: 137_000, // OpenTelemetry Collector ClickHouse exporter, per core
};

/** Numbers the analytics bench wrote into bench/README.md's results block. */
export function analyticsFigures(readme) {
  const start = readme.indexOf('<!-- bench:results:start -->');
  const end = readme.indexOf('<!-- bench:results:end -->');
  if (start < 0 || end < start) throw new Error('bench/README.md lacks its bench:results block');
  const block = readme.slice(start, end);
  const num = (re, what) => {
    const m = re.exec(block);
    if (m === null) throw new Error(`bench/README.md results block: no ${what}`);
    return Number(m[1].replace(/,/g, ''));
  };
  const spanBytes = num(/= \*\*([\d.]+) bytes\/span\*\* \(system\.parts\)/, 'bytes per span');
  const factsBytes = num(/= \*\*([\d.]+) bytes\/span\*\* more/, 'facts bytes per span');
  const windowSpans = num(/Queries cover project `[^`]+` \(([\d,]+) spans/, 'spans the queries cover');
  const measuredAt = /Measured (\S+)/.exec(block)?.[1] ?? 'unknown';
  // the table's "CPU ms ours / plain" column: every overview query once = one dashboard sweep
  let queryCpuMs = 0;
  let queries = 0;
  for (const line of block.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    const cpu = /^(\d+) \/ (\d+|—)$/.exec(cells[7] ?? '');
    if (cpu === null) continue;
    queryCpuMs += Number(cpu[1]);
    queries++;
  }
  if (queries === 0) throw new Error('bench/README.md results block: no query rows');
  return { spanBytes, factsBytes, windowSpans, queryCpuMs, queries, measuredAt };
}

/** Per-span costs from the ingest bench's results file. */
export function ingestFigures(ingest) {
  const round = ingest.rounds.find((r) => r.sustainedSpansPerS === ingest.sustainedSpansPerS) ?? ingest.rounds[0];
  const rows = ingest.ceiling.rows;
  const d = ingest.ceiling.decode;
  const totalUs = round.serverCpuUsPerSpan;
  const insertUs = (ingest.ceiling.insertCpuS / rows) * 1e6;
  const finaliserUs = (ingest.ceiling.finaliser.cpuS / rows) * 1e6;
  const factsComputeUs = (ingest.ceiling.workerFacts.computeCpuS / rows) * 1e6;
  const factsWriteUs = (ingest.ceiling.workerFacts.writeCpuS / rows) * 1e6;
  // the share of runs whose facts the saturated server's workers computed (the rest went to the finaliser)
  const paths = ingest.runFactsAtCatchUp;
  const workerShare =
    paths === undefined || paths.ingest + paths.sql === 0 ? 1 : paths.ingest / (paths.ingest + paths.sql);
  const decodeWall = d.decodeS + d.normaliseS + d.encodeS;
  // Telltale's own work runs on Node's threads (the main thread and the ingest workers, `node#<tid>`);
  // every other thread of the process is the engine's
  const nodeCores = ingest.server.threadCores
    .filter((t) => t.thread === 'main' || t.thread.startsWith('node#'))
    .reduce((sum, t) => sum + t.cores, 0);
  const measuredCollectorUs = (nodeCores / ingest.sustainedSpansPerS) * 1e6;
  // a collector below saturation computes the facts of every whole run, not only of the share it had time for
  const collectorUs = measuredCollectorUs + Math.max(0, ASSUME.wholeRunShare - workerShare) * factsComputeUs;
  const factsUs = ASSUME.wholeRunShare * factsWriteUs + (1 - ASSUME.wholeRunShare) * finaliserUs;
  return {
    measuredAt: ingest.measuredAt,
    command: ingest.command,
    machine: ingest.machine,
    loadAverage: ingest.loadAverage,
    sustained: ingest.sustainedSpansPerS,
    serverCores: ingest.server.cpuCores,
    totalUs,
    insertUs,
    factsUs,
    finaliserUs,
    factsComputeUs,
    factsWriteUs,
    workerShare,
    measuredCollectorUs,
    collectorUs,
    split: { decode: d.decodeS / decodeWall, normalise: d.normaliseS / decodeWall, encode: d.encodeS / decodeWall },
    wireBytes: d.protoBytesPerSpan,
    spoolBytes: d.bytesPerSpan,
    correct: ingest.correct,
  };
}

const fmt = (n, digits = 0) =>
  n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const rate = (r) => (r >= 1e6 ? `${r / 1e6}M` : `${r / 1e3}k`);
const tib = (bytes) => bytes / 1024 ** 4;

/** The generated block of docs/scaling.md. */
export function renderCapacity(ingestJson, readme) {
  const i = ingestFigures(ingestJson);
  const a = analyticsFigures(readme);
  const A = ASSUME;
  const diskPerSpan = a.spanBytes + a.factsBytes;
  const cpuMsPerLoadPerMSpans = a.queryCpuMs / (a.windowSpans / 1e6);
  const lines = [];
  lines.push(
    `Generated by \`npm run capacity\` (scripts/capacity.mjs) from bench/results/ingest.json (${i.measuredAt}, \`${i.command}\`) and the analytics results in bench/README.md (${a.measuredAt}). Do not edit by hand.`,
    '',
    '### Measured per span',
    '',
    '| cost | value | source |',
    '| --- | ---: | --- |',
    `| server CPU, everything (receive, decode, spool with fsync, insert, run facts) | ${fmt(i.totalUs, 1)} µs | ingest bench, embedded server, ${fmt(i.sustained)} spans/s sustained on ${fmt(i.serverCores, 2)} cores |`,
    `| engine: insert (Arrow → parts, merges during the insert) | ${fmt(i.insertUs, 1)} µs | ingest bench ceiling, plain insert |`,
    `| engine: run facts of runs whole in a request (count check, write) | ${fmt(i.factsWriteUs, 1)} µs | ingest bench ceiling, the workers' facts written as the drain does |`,
    `| engine: run-facts SQL finaliser (runs spread over requests) | ${fmt(i.finaliserUs, 1)} µs | ingest bench ceiling, \`runFacts.flush()\` over the same rows |`,
    `| collector: receive, decode, normalise, encode, spool, run facts | ${fmt(i.measuredCollectorUs, 1)} µs | ingest bench, CPU of the server's Node threads (main, ingest workers) per sustained span; saturated, its workers computed the facts of ${fmt(i.workerShare * 100)}% of the runs |`,
    `| … of which decode / normalise / Arrow encode (share of one thread's time) | ${fmt(i.split.decode * 100)}% / ${fmt(i.split.normalise * 100)}% / ${fmt(i.split.encode * 100)}% | ingest bench decode-cost line |`,
    `| … run facts computed by an ingest worker | ${fmt(i.factsComputeUs, 1)} µs | ingest bench ceiling, one thread; the model adds it for the runs a saturated worker left to the finaliser: ${fmt(i.collectorUs, 1)} µs per span in all |`,
    `| bytes on the wire (OTLP protobuf) | ${fmt(i.wireBytes)} B | ingest bench payload |`,
    `| bytes in the spool (Arrow) | ${fmt(i.spoolBytes)} B | ingest bench decode-cost line |`,
    `| bytes on disk, spans (compressed, merged) | ${fmt(a.spanBytes, 1)} B | analytics bench, system.parts |`,
    `| bytes on disk, run facts | ${fmt(a.factsBytes, 1)} B | analytics bench, system.parts |`,
    `| query CPU per dashboard sweep (${a.queries} queries) per million spans in the window | ${fmt(cpuMsPerLoadPerMSpans, 1)} ms | analytics bench, ${fmt(a.queryCpuMs)} CPU-ms over ${fmt(a.windowSpans)} spans |`,
    '',
    `Bench machine: ${i.machine.nproc} CPUs (${i.machine.cpuModel}), Node ${i.machine.node}, ClickHouse ${i.machine.clickhouse}; load average ${i.loadAverage.before} before the ingest run, ${i.loadAverage.after} after (shared machine: the sustained rate is what the server got of the CPU, so the model uses CPU per span, not spans per second). Stored = acknowledged: ${i.correct ? 'yes' : 'NO'}.`,
    '',
    `### Sizing at ${A.retentionDays} days' retention, ${A.replicas} replicas`,
    '',
    '| spans/s | collector cores | collector pods | ClickHouse cores (insert + facts, all replicas) | query cores | disk (TiB, all replicas) | ClickHouse nodes |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  );
  for (const r of RATES) {
    const collectorCores = (r * i.collectorUs) / 1e6 / A.collectorUtilisation;
    const pods = Math.max(2, Math.ceil(collectorCores / A.collectorPodCores));
    const chCores = (r * (i.insertUs * A.insertCostPerReplica * A.replicas + i.factsUs)) / 1e6;
    const windowMSpans = (r * 3600 * A.dashboardWindowHours) / 1e6;
    const queryCores = (A.dashboardLoadsPerS * windowMSpans * cpuMsPerLoadPerMSpans) / 1000;
    const disk = tib((r * 86_400 * A.retentionDays * diskPerSpan * A.replicas) / A.diskFillTarget);
    const byCpu = Math.ceil((chCores + queryCores) / (A.clickhouseNodeCores * A.clickhouseNodeUtilisation));
    const byDisk = Math.ceil(disk / A.clickhouseNodeDiskTiB);
    const nodes = Math.max(A.replicas * 2, Math.ceil(Math.max(byCpu, byDisk) / A.replicas) * A.replicas);
    lines.push(
      `| ${rate(r)} | ${fmt(collectorCores, 1)} | ${pods} | ${fmt(chCores, 1)} | ${fmt(queryCores, 1)} | ${fmt(disk, 1)} | ${nodes} (${nodes / A.replicas} shards × ${A.replicas}; ${byCpu >= byDisk ? 'CPU' : 'disk'}-bound) |`,
    );
  }
  lines.push(
    '',
    '### Beside peers’ published sizing (ingest side only)',
    '',
    `Uncompressed ingest taken as the OTLP protobuf bytes per span (${fmt(i.wireBytes)} B).`,
    '',
    '| spans/s | MB/s | Telltale collector cores | ClickStack (1 vCPU per 10 MB/s) | Tempo distributors (2 cores per 10 MB/s) | OTel Collector → ClickHouse (137k spans/s per core) |',
    '| ---: | ---: | ---: | ---: | ---: | ---: |',
  );
  for (const r of RATES) {
    const mbs = (r * i.wireBytes) / 1e6;
    lines.push(
      `| ${rate(r)} | ${fmt(mbs, 1)} | ${fmt((r * i.collectorUs) / 1e6, 1)} | ${fmt((r * i.wireBytes) / PEERS.clickstackBytesPerVcpu, 1)} | ${fmt((2 * r * i.wireBytes) / PEERS.tempoBytesPer2Cores, 1)} | ${fmt(r / PEERS.otelSpansPerCore, 1)} |`,
    );
  }
  lines.push(
    '',
    '### Assumptions (not measured)',
    '',
    '| assumption | value |',
    '| --- | --- |',
    `| collector pods run at most this share of their cores (the HPA target) | ${A.collectorUtilisation * 100}% of ${A.collectorPodCores} cores |`,
    `| every replica pays the insert-and-merge cost of its shard's parts; run facts are written once per shard | ×${A.replicas} insert, ×1 facts |`,
    `| runs that arrive whole in one export request (their facts come from the ingest workers; the others are read back by the SQL finaliser) | ${fmt(A.wholeRunShare * 100)}% |`,
    `| a ClickHouse node | ${A.clickhouseNodeCores} cores at ${A.clickhouseNodeUtilisation * 100}%, ${A.clickhouseNodeDiskTiB} TiB filled to ${A.diskFillTarget * 100}% |`,
    `| dashboard traffic | ${A.dashboardLoadsPerS} sweeps/s (every overview query once) over the last ${A.dashboardWindowHours} h, cost linear in the spans in the window (the run-level queries read run facts, so their cost follows runs, not spans) |`,
    '| per-span costs measured on 2 cores with embedded chDB hold on a server-class ClickHouse | unverified: no cluster runs here |',
  );
  return lines.join('\n');
}

/** docs/scaling.md with its generated block replaced. */
export function withCapacityBlock(doc, block) {
  const start = doc.indexOf(CAPACITY_START);
  const end = doc.indexOf(CAPACITY_END);
  if (start < 0 || end < start)
    throw new Error(`docs/scaling.md lacks the ${CAPACITY_START} … ${CAPACITY_END} markers`);
  return `${doc.slice(0, start + CAPACITY_START.length)}\n${block}\n${doc.slice(end)}`;
}

const root = fileURLToPath(new URL('..', import.meta.url));

/** The block computed from the committed results files. */
export function capacityFromRepo(dir = root) {
  const ingest = JSON.parse(readFileSync(`${dir}/bench/results/ingest.json`, 'utf8'));
  return renderCapacity(ingest, readFileSync(`${dir}/bench/README.md`, 'utf8'));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const block = capacityFromRepo();
  const path = `${root}/docs/scaling.md`;
  writeFileSync(path, withCapacityBlock(readFileSync(path, 'utf8'), block));
  console.log(block);
}
