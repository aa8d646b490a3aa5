import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { agentWithCollectorDown } from './collectorDown.js';
import type { CollectorDownResult } from './collectorDown.js';
import { measureOverhead } from './sdkOverhead.js';
import type { OverheadResult } from './sdkOverhead.js';

// `npm run bench:sdk`: (a) the SDK's cost per step against a bare OTel span,
// (b) an agent with the collector down, with and without the SDK, each in a
// fresh process. Writes the results into bench/README.md.
const STEPS = 20_000;
const ROUNDS = 21;
const RUNS = 20_000;
const TARGET = 1.2;

async function child(mode: 'plain' | 'sdk'): Promise<CollectorDownResult> {
  const { stdout } = await promisify(execFile)(process.execPath, [fileURLToPath(import.meta.url), '--child', mode], {
    timeout: 120_000,
  });
  return JSON.parse(stdout) as CollectorDownResult;
}

const f = (n: number, d = 0) => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });

function render(o: OverheadResult, plain: CollectorDownResult, sdk: CollectorDownResult, load: number[]): string {
  const s = sdk.stats!;
  const spans = (RUNS + 200) * 7;
  return [
    `Measured ${new Date().toISOString()} · \`npm run bench:sdk\``,
    '',
    `- **Machine**: ${cpus().length} CPUs (${cpus()[0]?.model ?? '?'}), ${f(totalmem() / 2 ** 30)} GiB; Node ${process.version}; shared, 1-minute load average ${f(load[0]!, 2)} at the start.`,
    '',
    '**(a) Cost per step.** `tool()` inside `run()` against a bare OpenTelemetry span (`startActiveSpan` around the same awaited function) on the same provider (`createTracerProvider`: resource, run-id processor, batch processor, no-op exporter; AsyncLocalStorage context).',
    `${f(STEPS)} steps per round, ${ROUNDS} rounds in one process, each round running the three back to back in a rotating order; median ns per step over the rounds, and the median of the per-round ratios (steadier when the machine is loaded).`,
    '',
    '| | median ns/step | rounds (ns/step) |',
    '| --- | ---: | --- |',
    `| bare OTel span | ${f(o.bareNs)} | ${o.bareRounds.map((x) => f(x)).join(', ')} |`,
    `| bare span + the SDK's attributes (args hash included) | ${f(o.attrsNs)} | ${o.attrsRounds.map((x) => f(x)).join(', ')} |`,
    `| SDK \`tool()\` | ${f(o.sdkNs)} | ${o.sdkRounds.map((x) => f(x)).join(', ')} |`,
    '',
    '| ratio | of the medians | median of per-round ratios |',
    '| --- | ---: | ---: |',
    `| SDK / bare span | **${f(o.ratio, 2)}×** | ${f(o.pairedRatio, 2)}× |`,
    `| SDK / bare span with the same attributes | **${f(o.ratioAttrs, 2)}×** | ${f(o.pairedRatioAttrs, 2)}× |`,
    '',
    `Target SDK / bare span ≤ ${TARGET}×: ${o.ratio <= TARGET ? '✅ met' : '❌ missed — see "Where a step\'s time goes" below'}.`,
    '',
    `**(b) Collector down.** A support-ticket agent (plan, three tools, an llm step, a validate step: 7 spans per run, each step one \`setImmediate\` of simulated I/O), ${f(RUNS)} runs after 200 warm-up runs, the SDK exporting OTLP to a loopback port nothing listens on; "plain" is the same agent without the SDK. Each in a fresh process.`,
    '',
    '| | p50 µs/run | p99 µs/run | max µs/run | wall ms | max event-loop delay ms | heap MiB at 10% / end / max | max RSS MiB |',
    '| --- | ---: | ---: | ---: | ---: | ---: | --- | ---: |',
    ...[plain, sdk].map(
      (r) =>
        `| ${r.mode === 'sdk' ? 'with the SDK' : 'plain'} | ${f(r.p50Us, 1)} | ${f(r.p99Us, 1)} | ${f(r.maxUs)} | ${f(r.wallMs)} | ${f(r.loopDelayMaxMs, 1)} | ${f(r.heapEarlyMiB, 1)} / ${f(r.heapEndMiB, 1)} / ${f(r.heapMaxMiB, 1)} | ${f(r.rssMaxMiB)} |`,
    ),
    '',
    `- \`telltaleStats()\` at the end: ${f(s.droppedSpans)} of ${f(spans)} spans dropped (queue full), ${f(s.queuedSpans)} queued (the default \`maxQueueSize\` 2048), ${f(s.exportingSpans)} in the export still retrying, ${f(s.exportedSpans)} exported, ${f(s.failedSpans)} failed; the first drop went to the error handler.`,
    `- \`shutdown({ timeoutMs: 5000 })\` returned after ${f(sdk.shutdownMs!)} ms (the export to the closed port was still retrying; shutdown is bounded and never rejects).`,
    '',
  ].join('\n');
}

async function main(): Promise<void> {
  const childAt = process.argv.indexOf('--child');
  if (childAt !== -1) {
    const mode = process.argv[childAt + 1] === 'sdk' ? 'sdk' : 'plain';
    process.stdout.write(JSON.stringify(await agentWithCollectorDown(mode, RUNS)));
    process.exit(0);
  }
  const load = loadavg();
  const overhead = await measureOverhead(STEPS, ROUNDS);
  const plain = await child('plain');
  const sdk = await child('sdk');
  const md = render(overhead, plain, sdk, load);
  console.log(md);
  const readme = fileURLToPath(new URL('../../../bench/README.md', import.meta.url));
  const text = readFileSync(readme, 'utf8');
  const [start, end] = ['<!-- bench:sdk:start -->', '<!-- bench:sdk:end -->'];
  if (text.includes(start)) {
    writeFileSync(
      readme,
      `${text.slice(0, text.indexOf(start) + start.length)}\n${md}\n${text.slice(text.indexOf(end))}`,
    );
  }
}

await main();
