import { CONTENT_SLOWDOWN_LIMIT, type ContentComparison } from './compareContent.js';

const int = (n: number): string => Math.round(n).toLocaleString('en-US');

/** The generated part of bench/README.md's "Ingest with content" section. */
export function renderContentComparison(c: ContentComparison): string {
  const lean = c.rounds.filter((r) => r.mode === 'lean');
  const content = c.rounds.filter((r) => r.mode === 'content');
  const body = (rs: typeof lean): string => `${((rs[0]?.bodyBytes ?? 0) / 1024).toFixed(0)} KiB`;
  const textPerRow =
    content.reduce((n, r) => n + r.contentTextBytes, 0) / content.reduce((n, r) => n + r.contentRows, 0);
  const lines = [
    `Measured ${c.measuredAt} · \`${c.command}\``,
    '',
    `- **Machine**: ${c.machine.nproc} CPUs (${c.machine.cpuModel}), ${c.machine.memoryGiB.toFixed(0)} GiB; Node ${c.machine.node}; ClickHouse ${c.machine.clickhouse} (chDB, embedded).`,
    `- **Load conditions**: the machine is shared with other jobs: 1-minute load average ${c.loadAverage.before.toFixed(2)} before, ${c.loadAverage.after.toFixed(2)} after; per round (before → after) ${c.rounds.map((r) => `${r.loadBefore.toFixed(1)} → ${r.loadAfter.toFixed(1)}`).join(', ')}. Absolute rates are low; the ratio of the two medians, measured side by side, is the figure.`,
    `- **Rounds**: lean and content alternated, lean first, ${lean.length} of each, each against a fresh server and data directory; ${c.warmupSeconds} s warm-up, ${c.seconds} s timed, ${c.concurrency} requests in flight. Requests of 512 spans: lean ${body(lean)}; content ${body(content)}, its ${c.llmSpansPerRequest.toFixed(1)} llm spans per request each carrying ~${int(c.contentBytes)} bytes of \`gen_ai.input.messages\` (system, user, tool call, tool result) and \`gen_ai.output.messages\` (the answer) as JSON strings; ${int(textPerRow)} bytes of text per stored content row.`,
    '',
    '| Round | mode | sustained spans/s | acknowledged/s | stored/s | server CPU-µs/span | peak RSS | stored / acknowledged spans | content rows / llm spans sent | span rows with content |',
    '| ---: | --- | ---: | ---: | ---: | ---: | ---: | --- | --- | ---: |',
    ...c.rounds.map(
      (r, i) =>
        `| ${i + 1} | ${r.mode} | ${int(r.sustainedSpansPerS)} | ${int(r.ackedSpansPerS)} | ${int(r.storedSpansPerS)} | ${r.serverCpuUsPerSpan.toFixed(1)} | ${r.peakRssMiB.toFixed(0)} MiB | ${int(r.storedSpans)} / ${int(r.ackedSpans)} | ${int(r.contentRows)} / ${int(r.ackedContentSpans)} | ${int(r.spanRowsWithContent)} |`,
    ),
    '',
    `Median sustained spans/s: lean **${int(c.leanMedian)}**, content **${int(c.contentMedian)}**; content / lean = **${(c.ratio * 100).toFixed(1)}%** (${c.ratio >= 1 ? `${((c.ratio - 1) * 100).toFixed(1)}% faster` : `${((1 - c.ratio) * 100).toFixed(1)}% slower`}). Target: within ${(CONTENT_SLOWDOWN_LIMIT * 100).toFixed(0)}% of lean (≥ ${((1 - CONTENT_SLOWDOWN_LIMIT) * 100).toFixed(0)}%): ${c.withinLimit ? '✅ met' : `❌ missed by ${((1 - CONTENT_SLOWDOWN_LIMIT - c.ratio) * 100).toFixed(1)} points`}.`,
    `Stored = acknowledged in every round, one \`span_content\` row per llm span sent and no content left in span rows: ${c.correct ? '✅' : '❌ MISMATCH'}.`,
  ];
  return lines.join('\n');
}
