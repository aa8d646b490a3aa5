import type {
  CostSummary,
  Estimate,
  FailureBreakdown,
  LatencyPercentiles,
  LoopsReport,
  ReliabilitySummary,
  TailAttribution,
} from '@telltale/analytics';
import { costSection, failuresSection, latencySection, loopsSection } from './formatSections.js';
import { formatCount, formatPercent, formatPoints, formatRange, NONE } from './formatValue.js';
import { renderTable } from './renderTable.js';

/** What `telltale report` fetched; sections the server does not offer are absent. */
export interface ReportData {
  endpoint: string;
  /** e.g. `last 2h`. */
  window: string;
  agent?: string;
  reliability: ReliabilitySummary;
  /** `/latency/percentiles?groupBy=run`, `…=agent`, `/latency/tail`. */
  latency?: { runs: LatencyPercentiles; byAgent?: LatencyPercentiles; tail?: TailAttribution };
  loops?: LoopsReport;
  failures?: FailureBreakdown;
  cost?: CostSummary;
}

const TOP_STEPS = 8;
const pct = (x: number): string => formatPercent(x);
const pp = (x: number): string => formatPoints(x);

function estimateRow(label: string, e: Estimate, fmt: (x: number) => string): string[] {
  return [label, e.value === null ? NONE : fmt(e.value), formatRange(e.low, e.high, fmt), formatCount(e.n)];
}

function reliabilitySection(r: ReliabilitySummary): string[] {
  const completed = r.runs.success + r.runs.failure;
  const lines = [
    `Runs: ${formatCount(completed + r.runs.incomplete)}  (${formatCount(r.runs.success)} success, ${formatCount(r.runs.failure)} failure, ${formatCount(r.runs.incomplete)} incomplete)`,
    '',
    renderTable(
      [
        { header: 'End-to-end success' },
        { header: 'value', align: 'right' },
        { header: '95% interval', align: 'right' },
        { header: 'n', align: 'right' },
      ],
      [
        estimateRow('observed', r.observed, pct),
        estimateRow('predicted (steps independent)', r.predicted, pct),
        estimateRow('gap (observed − predicted)', r.gap, pp),
      ],
    ),
  ];
  const d = r.decomposition;
  if (completed > 0) {
    lines.push(
      '',
      `Failed runs: ${formatCount(d.stepExplainedFailures)} explained by a step that never succeeded, ${formatCount(d.seamFailures)} at the seams (every step eventually succeeded); ${formatCount(d.fallbackRecoveries)} runs succeeded despite a failed step.`,
    );
  }
  if (r.agents.length > 1 || (r.agents.length === 1 && r.agents[0]?.runs !== completed)) {
    lines.push(
      '',
      renderTable(
        [
          { header: 'agent' },
          { header: 'service' },
          { header: 'runs', align: 'right' },
          { header: 'observed', align: 'right' },
          { header: 'predicted', align: 'right' },
        ],
        [...r.agents]
          .sort((a, b) => b.runs - a.runs)
          .map((a) => [
            a.agent,
            a.service,
            formatCount(a.runs),
            formatPercent(a.observed.value),
            formatPercent(a.predicted.value),
          ]),
      ),
    );
  }
  const steps = r.steps.slice(0, TOP_STEPS);
  if (steps.length > 0) {
    lines.push(
      '',
      `Weakest links: gain in predicted success if a step's p reached ${formatPercent(r.whatIfTarget)}` +
        (r.steps.length > TOP_STEPS ? ` (top ${TOP_STEPS} of ${r.steps.length})` : ''),
      renderTable(
        [
          { header: 'step' },
          { header: 'kind' },
          { header: 'groups', align: 'right' },
          { header: 'a attempt', align: 'right' },
          { header: 'f first', align: 'right' },
          { header: 'p eventual', align: 'right' },
          { header: 'r recovery', align: 'right' },
          { header: 'what-if gain', align: 'right' },
        ],
        steps.map((s) => [
          s.stepName,
          s.stepKind,
          formatCount(s.groups),
          formatPercent(s.attemptSuccess.value),
          formatPercent(s.firstAttemptSuccess.value),
          formatPercent(s.eventualSuccess.value),
          formatPercent(s.recovery.value),
          formatPoints(s.whatIfGain),
        ]),
      ),
    );
  }
  return lines;
}

/** The whole report as terminal text. */
export function formatReport(data: ReportData): string {
  const title = `Telltale report · ${data.endpoint} · ${data.window}${data.agent === undefined ? '' : ` · agent ${data.agent}`}`;
  const lines = [title, '═'.repeat([...title].length), ...reliabilitySection(data.reliability)];
  if (data.latency !== undefined)
    lines.push('', ...latencySection(data.latency.runs, data.latency.byAgent, data.latency.tail));
  if (data.loops !== undefined) lines.push('', ...loopsSection(data.loops));
  if (data.failures !== undefined) lines.push('', ...failuresSection(data.failures));
  if (data.cost !== undefined) lines.push('', ...costSection(data.cost));
  return `${lines.join('\n')}\n`;
}
