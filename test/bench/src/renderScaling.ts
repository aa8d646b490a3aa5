import type { ScalingReport } from './runScaling.js';

/** Target of every overview query at the largest size, and of each rollup-backed query's largest/smallest ratio. */
export const SCALING_TARGET_MS = 500;
export const SCALING_MAX_RATIO = 2;

const ms = (v: number | undefined): string => (v === undefined || Number.isNaN(v) ? 'failed' : v.toFixed(1));
const mSpans = (n: number): string => `${(n / 1e6).toFixed(n < 1e7 ? 2 : 1)}M`;

/** The scaling table (markdown): median ms per query, size and table state; ratio of the largest to the smallest size (merged). */
export function renderScaling(r: ScalingReport): string {
  const sizes = r.sizes;
  const first = sizes[0];
  const last = sizes[sizes.length - 1];
  if (first === undefined || last === undefined) return 'no sizes measured';
  const scans = r.catchUpCases;
  const names = Object.keys(first.mergedMs).filter((n) => !scans.includes(n));
  const head = sizes.flatMap((s) => [`${mSpans(s.spans)} live`, `${mSpans(s.spans)} merged`]);
  const ratioHead = `${mSpans(last.spans)} / ${mSpans(first.spans)} (merged, CPU)`;
  const table = (rows: readonly string[]): string[] => [
    `| query | ${head.join(' | ')} | ${ratioHead} |`,
    `| --- | ${head.map(() => '---:').join(' | ')} | ---: |`,
    ...rows.map((name) => {
      const rollup = r.rollupCases.includes(name);
      const cells = sizes.flatMap((s) => [
        `${ms(s.liveMs[name])} (${ms(s.liveCpuMs[name])})`,
        `${ms(s.mergedMs[name])} (${ms(s.mergedCpuMs[name])})`,
      ]);
      const ratio = (last.mergedCpuMs[name] ?? Number.NaN) / (first.mergedCpuMs[name] ?? Number.NaN);
      return `| ${rollup ? '● ' : ''}${name} | ${cells.join(' | ')} | ${Number.isFinite(ratio) ? ratio.toFixed(2) : '–'} |`;
    }),
  ];
  const lines = [
    `Scaling of the overview queries — ${r.date.slice(0, 10)}, \`${r.command}\`, median of ${r.iterations} after a warm-up: wall ms (CPU ms of the process, every thread, in brackets).`,
    `Sizes: ${sizes.map((s) => `${s.runs.toLocaleString('en')} runs of the bench preset = ${mSpans(s.totalSpans)} spans, of which the measured project (the largest) has ${mSpans(s.spans)}`).join('; ')}. Columns are by the project's spans, all in the window (the overview filter: the dashboard's kind of window, on whole minutes).`,
    `Spans = the measured project's spans, all in the window. "live": parts as inserted (background merges only, run facts finalised); "merged": after OPTIMIZE FINAL of spans, span_rollup_1m and the facts tables. Rollup-backed rows are marked ●; targets: < ${SCALING_TARGET_MS} ms at the largest size, rollup-backed ratio ≤ ${SCALING_MAX_RATIO}.`,
    '',
    ...table(names),
  ];
  if (scans.length > 0)
    lines.push(
      '',
      `The run facts catch-up's scan for stale runs, in the same stores (every run finalised, so nothing is found): over every run, as at start and every hour; over the runs with spans ingested since a moment just before the last few runs were stored, and since a moment after them, as the leading worker of split roles scans every 15 s.`,
      '',
      ...table(scans),
    );
  lines.push(
    '',
    `Load: ${sizes.map((s) => `${mSpans(s.spans)} in ${(s.loadMs / 1000).toFixed(0)} s, OPTIMIZE ${(s.optimizeMs / 1000).toFixed(1)} s, load average ${s.loadAverage.map((v) => v.toFixed(1)).join('→')}`).join('; ')}.`,
  );
  return lines.join('\n');
}
