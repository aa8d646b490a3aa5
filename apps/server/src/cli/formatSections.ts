import type {
  CostSummary,
  FailureBreakdown,
  LatencyPercentiles,
  LoopsReport,
  TailAttribution,
} from '@telltale/analytics';
import { LOOP_KINDS, LOOP_KIND_LABELS } from '@telltale/semconv';
import { formatCount, formatDurationNs, formatPercent, formatPoints, formatUsd } from './formatValue.js';
import { renderTable } from './renderTable.js';

/** Run-duration percentiles: one line for all runs, then one row per agent when there are several. */
export function latencySection(
  runs: LatencyPercentiles,
  byAgent?: LatencyPercentiles,
  tail?: TailAttribution,
): string[] {
  const all = runs.groups[0];
  if (all === undefined) return ['Run latency: no completed runs'];
  const p = all.percentilesNs;
  const approx =
    all.accuracy.method === 'ddsketch' ? ` (digest, ±${formatPercent(all.accuracy.relativeError, 0)})` : '';
  const lines = [
    `Run latency${approx}: p50 ${formatDurationNs(p.p50)} · p95 ${formatDurationNs(p.p95)} · p99 ${formatDurationNs(p.p99)} · max ${formatDurationNs(all.maxNs)}  (${formatCount(all.count)} runs)`,
  ];
  if (byAgent !== undefined && byAgent.groups.length > 1) {
    lines.push(
      renderTable(
        [
          { header: 'agent' },
          { header: 'service' },
          { header: 'runs', align: 'right' },
          { header: 'p50', align: 'right' },
          { header: 'p95', align: 'right' },
          { header: 'p99', align: 'right' },
        ],
        byAgent.groups.map((g) => [
          g.key,
          g.service,
          formatCount(g.count),
          formatDurationNs(g.percentilesNs.p50),
          formatDurationNs(g.percentilesNs.p95),
          formatDurationNs(g.percentilesNs.p99),
        ]),
        '  ',
      ),
    );
  }
  if (tail?.tailDriver != null) {
    const driver = tail.steps.find((s) => s.stepName === tail.tailDriver && s.kind === 'step');
    if (driver !== undefined) {
      lines.push(
        `Tail driver: ${driver.stepName} takes ${formatPercent(driver.tailShare)} of run time in the slowest runs (≥ p99, ${formatCount(tail.tailRuns)} runs) vs ${formatPercent(driver.medianShare)} at the median (${formatPoints(driver.delta)})`,
      );
    }
  }
  return lines;
}

export function costSection(cost: CostSummary): string[] {
  if (cost.runs.total === 0) return ['Cost: no runs'];
  const r = cost.perRun;
  const lines = [
    `Cost: ${formatUsd(cost.totalUsd)} total · per run p50 ${formatUsd(r.p50Usd)} · p95 ${formatUsd(r.p95Usd)} · p99 ${formatUsd(r.p99Usd)} · max ${formatUsd(r.maxUsd)}`,
    `      per success ${formatUsd(cost.perSuccessUsd)} (failures included) · wasted ${formatUsd(cost.wasted.totalUsd)} (${formatPercent(cost.wasted.share)}) on failed${cost.wasted.loopingRunsUsd === null ? '' : ' and looping'} runs`,
  ];
  if (cost.unpriced.spans > 0) {
    const models = cost.unpriced.byModel.map((m) => m.model || '(no model)').slice(0, 5);
    lines.push(
      `      ${formatCount(cost.unpriced.spans)} spans have usage no price covers (counted as $0): ${models.join(', ')} — set one with PUT /api/v1/prices/:model`,
    );
  }
  return lines;
}

export function loopsSection(loops: LoopsReport): string[] {
  if (loops.runs === 0) return ['Loops: no runs'];
  const o = loops.overall;
  const kinds = LOOP_KINDS.map(
    (k) => `${LOOP_KIND_LABELS[k].toLowerCase()} ${formatCount(loops.byKind[k].runsFlagged)}`,
  );
  return [
    `Loops: ${formatCount(o.runsFlagged)} of ${formatCount(loops.runs)} runs (${formatPercent(o.runsFlagged / loops.runs)}) · ${kinds.join(' · ')}`,
    `       wasted ${formatDurationNs(o.wastedNs)} and ${formatUsd(o.wastedCostUsd)} on repeats`,
  ];
}

export function failuresSection(failures: FailureBreakdown): string[] {
  if (failures.failedRuns === 0) return ['Failures: none'];
  const rows = failures.causes
    .filter((c) => c.runs > 0)
    .map((c) => [c.cause, formatCount(c.runs), formatPercent(c.share)]);
  return [
    `Failures by primary cause (${formatCount(failures.failedRuns)} failed runs)`,
    renderTable(
      [{ header: 'cause' }, { header: 'runs', align: 'right' }, { header: 'share', align: 'right' }],
      rows,
      '  ',
    ),
  ];
}
