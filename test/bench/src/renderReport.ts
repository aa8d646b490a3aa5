import type { BenchReport, CaseResult } from './runBench.js';

const ms = (v: number | undefined): string => (v === undefined ? '—' : v < 10 ? v.toFixed(1) : v.toFixed(0));
const int = (v: number): string => Math.round(v).toLocaleString('en');
const mib = (bytes: number): string => {
  const v = bytes / 2 ** 20;
  return v < 10 ? v.toFixed(1) : v.toFixed(0);
};

function verdict(r: CaseResult): string {
  if (r.error !== undefined) return `❌ ${r.error}`;
  if (r.misses.length > 0) return `❌ ${r.misses.join('; ')}`;
  return r.targetMs === undefined && r.maxRatio === undefined ? '(no target)' : '✅';
}

function target(r: CaseResult): string {
  const parts: string[] = [];
  if (r.targetMs !== undefined) parts.push(`< ${r.targetMs} ms`);
  if (r.maxRatio !== undefined) parts.push(`≤ ${r.maxRatio}×`);
  return parts.length === 0 ? '—' : parts.join(', ');
}

function agreement(r: CaseResult): string {
  if (r.plainIsLowerBound) return 'lower bound';
  if (r.disagreements === undefined) return '—';
  return r.disagreements.length === 0 ? 'same' : `**differs**: ${r.disagreements[0] ?? ''}`;
}

/** The results table. */
export function renderTable(report: BenchReport): string {
  const lines = [
    '| Query | ours median ms | ours p90 ms | plain SQL median ms | plain p90 ms | ours / plain | CPU ms ours / plain | numbers | target | verdict |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- | --- |',
  ];
  for (const r of report.results) {
    lines.push(
      `| ${r.name}${r.generic ? ' ⚠' : ''} | ${ms(r.ours?.medianMs)} | ${ms(r.ours?.p90Ms)} | ${ms(r.plain?.medianMs)} | ${ms(r.plain?.p90Ms)} | ${r.ratio === undefined ? '—' : `${r.plainIsLowerBound ? '≤ ' : ''}${r.ratio.toFixed(2)}×`} | ${ms(r.ours?.cpuMedianMs)} / ${ms(r.plain?.cpuMedianMs)} | ${agreement(r)} | ${target(r)} | ${verdict(r)} |`,
    );
  }
  return lines.join('\n');
}

/** The whole results section: facts, table, storage. */
export function renderReport(report: BenchReport): string {
  const m = report.machine;
  const l = report.load;
  const s = report.storage;
  const missed = report.results.filter((r) => r.misses.length > 0);
  const f = report.finaliser;
  const facts = s.facts.map((t) => `${t.table} ${mib(t.bytesOnDisk)} MiB (${int(t.rows)} rows)`).join(', ');
  const topColumns = s.columns
    .slice(0, 8)
    .map((c) => `${c.column} ${(c.compressedBytes / s.rows).toFixed(1)}`)
    .join(', ');
  return [
    `Measured ${report.date} · \`${report.command}\``,
    '',
    `- **Machine**: ${m.nproc} CPUs (${m.cpuModel}), ${m.memoryGiB.toFixed(0)} GiB; Node ${m.node}; chdb ${m.chdb} (ClickHouse ${m.clickhouse}).`,
    `- **Load conditions**: the machine is shared. 1-minute load average ${report.quiet.loadAverage.toFixed(2)} when timing began` +
      ` (${report.quiet.quiet ? `≤ ${report.quiet.maxLoadAverage}` : `still > ${report.quiet.maxLoadAverage} after waiting ${Math.round(report.quiet.waitedMs / 1000)} s`}),` +
      ` ${report.loadAverageDuring[0].toFixed(2)}–${report.loadAverageDuring[1].toFixed(2)} during the timed section.`,
    `- **Data**: bench preset, seed ${report.seed}, ${int(report.runs)} runs = ${int(l.spans)} spans (${l.loadedAt}${report.loadedNow ? ', loaded by this run' : ', cached data directory'});` +
      ` after the load \`OPTIMIZE TABLE spans FINAL\` (${(l.optimizeMs / 1000).toFixed(0)} s) leaves ${s.parts} active part(s), the merged state a long-running store settles into.` +
      ` Queries cover project \`${report.project.projectId}\` (${int(report.project.spans)} spans, ${int(report.project.runs)} runs) over the dataset's whole 6-hour window.`,
    `- **Load throughput** (\`Store.insertSpans\`, JSONEachRow, ${int(l.runsPerInsert)} runs ≈ ${int(l.spans / l.inserts)} spans per insert, generation included):` +
      ` ${int(l.rowsPerSecond)} rows/s wall (${(l.loadMs / 1000).toFixed(0)} s)` +
      (l.loadCpuMs === undefined
        ? ''
        : `, ${int(l.spans / (l.loadCpuMs / 1000))} rows per CPU-second (the process used ${(l.loadCpuMs / l.loadMs).toFixed(2)} cores)`) +
      (l.loadAverage === undefined
        ? ''
        : `; load average ${l.loadAverage[0].toFixed(1)} → ${l.loadAverage[1].toFixed(1)} while loading.`),
    `- **Run-facts finaliser** (\`store.runFacts.flush\`, timed before the queries): the project's ${int(f.runs)} newest runs (time-clustered, like the runs finalised right after their ingest) refinalised in ${(f.wallMs / 1000).toFixed(1)} s wall` +
      ` (${ms(f.runs === 0 ? undefined : f.wallMs / f.runs)} ms per run; ${ms(f.runs === 0 ? undefined : f.cpuMs / f.runs)} CPU-ms per run), the cost paid once per run after ingest instead of per query; the rows it wrote are merged away before the queries.`,
    `- **On disk**: ${(s.bytesOnDisk / 2 ** 20).toFixed(0)} MiB for ${int(s.rows)} spans = **${s.bytesPerSpan.toFixed(1)} bytes/span** (system.parts); largest columns, compressed bytes/span: ${topColumns}.` +
      ` Run facts (finalised, then merged by \`OPTIMIZE … FINAL\`): ${facts} = **${s.factsBytesPerSpan.toFixed(1)} bytes/span** more.`,
    `- **RSS**: ${report.rssMiB.afterOpen.toFixed(0)} MiB after opening the store, peak ${report.rssMiB.peakDuringQueries.toFixed(0)} MiB while querying.`,
    `- **Method**: each query warmed up once, then timed ${report.iterations}× in sequence; median and p90 (nearest rank) of those, and the median CPU time of the process per call (chDB's threads included: steadier than wall time on a shared machine). "plain SQL" is a hand-written query straight on \`spans\` computing the same numbers (checked: the "numbers" column compares its rows with the store's); ours is the facade call (store query + TypeScript math).`,
    '',
    renderTable(report),
    '',
    missed.length === 0 ? 'Every query met its target.' : `Missed: ${missed.map((r) => r.name).join(', ')}.`,
    report.uncovered.length === 0
      ? ''
      : `\n⚠ Facade methods without a written case (timed by a generic call, no baseline): ${report.uncovered.join(', ')}.`,
  ].join('\n');
}
