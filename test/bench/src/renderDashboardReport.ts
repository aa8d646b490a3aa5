import { FIRST_DATA_TARGET_MS, type DashboardReport, type PageResult } from './runDashboardBench.js';

const ms = (v: number): string => (Number.isFinite(v) ? Math.round(v).toLocaleString('en') : 'timeout');
const s = (v: number): string => `${(v / 1000).toFixed(1)} s`;
const int = (v: number): string => Math.round(v).toLocaleString('en');

function marksLine(p: PageResult): string {
  return p.marks.map((m) => `${m.name} ${ms(m.medianMs)}`).join(', ');
}

function verdict(p: PageResult): string {
  if (p.timeouts > 0) return `❌ ${p.timeouts} timed out`;
  return p.met ? '✅' : '❌';
}

/** The generated part of bench/README.md's dashboard section. */
export function renderDashboardReport(r: DashboardReport): string {
  const o = r.options;
  const d = r.data;
  const lines = [
    `Measured ${r.measuredAt} · \`${r.command}\``,
    '',
    `- **Machine**: ${r.machine.nproc} CPUs (${r.machine.cpuModel}), ${r.machine.memoryGiB.toFixed(0)} GiB; Node ${r.machine.node}; chdb ${r.machine.chdb} (ClickHouse ${r.machine.clickhouse}); Chromium ${r.chromium} (headless, Debian's). Server, browser and bench share these ${r.machine.nproc} cores.`,
    `- **Load conditions**: the machine is shared. 1-minute load average ${r.quiet.loadAverage.toFixed(2)} when timing began (${r.quiet.quiet ? `≤ ${r.quiet.maxLoadAverage}` : `> ${r.quiet.maxLoadAverage} after waiting ${s(r.quiet.waitedMs)}: other tenants were busy`}), ${r.loadAverageDuring[0].toFixed(2)}–${r.loadAverageDuring[1].toFixed(2)} at the navigations' starts.`,
    `- **Data**: bench preset, seed ${d.seed}, ${int(d.runs)} runs = ${int(d.totalSpans)} spans in the store (${d.loadedNow ? 'loaded by this run' : `cached data directory, loaded ${d.loadedAt}`}). The dashboard shows one project (the server's read key is scoped to it): \`${r.project.projectId}\`, ${int(r.project.spans)} spans, ${int(r.project.runs)} runs, over the dataset's whole window \`?from=${r.window.fromIso}&to=${r.window.toIso}\` (${((Date.parse(r.window.toIso) - Date.parse(r.window.fromIso)) / 3_600_000).toFixed(1)} h).`,
    `- **Before timing**: opening the data directory (the store's run-facts reconcile included) ${s(r.prepareMs.open)}; finalising every pending run and merging the facts tables (\`OPTIMIZE … FINAL\`) ${s(r.prepareMs.settleFacts)}; then \`telltale start --auth keys --log-level warn\` on it until \`GET /api/v1/health\` answered: **${s(r.serverStartMs)}** (migrations and listen; the server looks for stale run facts in the background after it listens, and \`/readyz\` says so meanwhile).`,
    `- **Runs opened**: typical \`${r.runs.typical.runId}\` (${int(r.runs.typical.spans)} spans: the median of the newest 1,000 completed runs \`GET /runs\` lists), largest \`${r.runs.largest.runId}\` (${int(r.runs.largest.spans)} spans: the most of any run, from the store).`,
    `- **Method**: per page one warm-up visit, then ${o.navigations} cold navigation${o.navigations === 1 ? '' : 's'}, each in a new browser context (empty HTTP cache and storage, so the app's JS is fetched again and TanStack Query's cache starts empty) with a 1440×900 viewport. A script installed before the page's own watches the DOM; a mark's time is \`performance.now()\` (ms since navigation start) in the animation frame after its element appeared. **First data**: the first of the page's data marks (a tile in its \`ready\` state, a runs-table row, the run header and waterfall); **all data**: the last mark (every tile; the runs' causes and loop flags; the run's loop check). Spinners, empty and error states never count. "Slowest API call": the route with the longest median duration (browser resource timing, queueing in the browser included). "Server CPU": the server process's CPU time (all threads, from /proc, 10 ms ticks) from navigation start until the page's last data was painted, median: what the page costs the server, steadier than the wall times when neighbours are busy.`,
    '',
    `| Page | first data median | first data max | all data median | all data max | API calls | server CPU | slowest API call (median / max) | target | verdict |`,
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- | --- |',
    ...r.pages.map(
      (p) =>
        `| ${p.name} | ${ms(p.firstData.medianMs)} ms | ${ms(p.firstData.maxMs)} ms | ${ms(p.allData.medianMs)} ms | ${ms(p.allData.maxMs)} ms | ${int(p.apiCalls)} | ${ms(p.serverCpuMs)} ms | ${p.slowestApi === undefined ? '—' : `\`${p.slowestApi.route}\` ${ms(p.slowestApi.medianMs)} / ${ms(p.slowestApi.maxMs)} ms`} | first data < ${int(FIRST_DATA_TARGET_MS)} ms | ${verdict(p)} |`,
    ),
    '',
    'Per page, median ms since navigation start: the HTML, the last script/style, the last API response, and each mark.',
    '',
    ...r.pages.map(
      (p) =>
        `- **${p.name}**: HTML ${ms(p.htmlMs)}, assets ${ms(p.assetsEndMs)}, last API response ${ms(p.lastApiEndMs)}; ${marksLine(p)}${p.problems.length > 0 ? `; **not ready**: ${p.problems.join(', ')}` : ''}.`,
    ),
    '',
    r.pages.every((p) => p.met)
      ? `Every page showed its first data in under ${int(FIRST_DATA_TARGET_MS)} ms on every measured navigation.`
      : `Missed: ${r.pages
          .filter((p) => !p.met)
          .map((p) => p.name)
          .join('; ')}.`,
  ];
  return lines.join('\n');
}
