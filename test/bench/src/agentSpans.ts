import type { SpanRecord, StoreRows } from '@telltale/store';

type KeyValue = { key: string; value: StoreRows.AttributeValue };

/** A fresh flat string, as a protobuf decoder hands it over (not an interned literal, not a rope). */
function fresh(s: string): string {
  return Buffer.from(s, 'utf8').toString('utf8');
}

/** A tiny deterministic generator (xorshift32): benchmarks need repeatable data, not quality randomness. */
class Random {
  constructor(private state: number) {}
  next(): number {
    let x = this.state;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    this.state = x >>> 0;
    return this.state / 4294967296;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  hex(chars: number): string {
    let out = '';
    while (out.length < chars) out += this.int(0x10000).toString(16).padStart(4, '0');
    return out.slice(0, chars);
  }
  words(n: number): string {
    const words = [
      'search',
      'the',
      'order',
      'customer',
      'refund',
      'weather',
      'tool',
      'result',
      'retry',
      'plan',
      'résumé',
      'données',
    ];
    return Array.from({ length: n }, () => words[this.int(words.length)]!).join(' ');
  }
}

/** Spans per simulated OTLP request (one resource, one scope). */
const SPANS_PER_REQUEST = 50;

const STEP_KINDS = ['plan', 'act', 'tool', 'llm', 'validate', 'retrieve'] as const;
const MODELS = ['gpt-4o-mini', 'claude-3-5-sonnet', 'llama-3.1-70b'] as const;

/**
 * Realistic agent spans: 10–20 attributes (GenAI semantic conventions and
 * Telltale's own, strings mostly, some ints, doubles and bools), 6 resource
 * attributes shared by the 50 spans of a request (as normaliseRequest shares
 * them), a quarter of the spans with 1–3 events of a few attributes, one in
 * twenty with a link. Every other string is a fresh heap string.
 */
export function agentSpans(
  count: number,
  seed = 1,
  startNs = BigInt(Date.now() - 3_600_000) * 1_000_000n,
): SpanRecord[] {
  const r = new Random(seed || 1);
  const spans: SpanRecord[] = [];
  let resource: KeyValue[] = [];
  let request = { projectId: '', serviceName: '', scopeName: '', scopeVersion: '' };
  for (let i = 0; i < count; i++) {
    if (i % SPANS_PER_REQUEST === 0) {
      // what normaliseRequest shares among the spans of one request's resource and scope
      resource = [
        { key: fresh('service.name'), value: fresh('support-agent') },
        { key: fresh('service.version'), value: fresh('1.4.2') },
        { key: fresh('deployment.environment'), value: fresh('production') },
        { key: fresh('telemetry.sdk.name'), value: fresh('opentelemetry') },
        { key: fresh('telemetry.sdk.language'), value: fresh('nodejs') },
        { key: fresh('host.name'), value: fresh(`worker-${r.int(8)}`) },
      ];
      request = {
        projectId: fresh('proj-bench'),
        serviceName: fresh('support-agent'),
        scopeName: fresh('@telltale/sdk'),
        scopeVersion: fresh('0.1.0'),
      };
    }
    const stepKind = STEP_KINDS[r.int(STEP_KINDS.length)]!;
    const model = stepKind === 'llm' ? MODELS[r.int(MODELS.length)]! : '';
    const traceId = r.hex(32);
    const runId = `run-${Math.floor(i / 20)}-${seed}`;
    const start = startNs + BigInt(i) * 1_000_003n;
    const attributes: KeyValue[] = [
      { key: fresh('telltale.run.id'), value: fresh(runId) },
      { key: fresh('telltale.step.kind'), value: fresh(stepKind) },
      { key: fresh('telltale.step.name'), value: fresh(`${stepKind}-${r.int(12)}`) },
      { key: fresh('telltale.agent.name'), value: fresh('support-agent') },
      { key: fresh('telltale.step.attempt'), value: BigInt(1 + r.int(3)) },
      { key: fresh('telltale.state.hash'), value: fresh(r.hex(16)) },
      { key: fresh('gen_ai.operation.name'), value: fresh(stepKind === 'llm' ? 'chat' : 'execute_tool') },
      { key: fresh('gen_ai.system'), value: fresh('openai') },
      { key: fresh('user.tier'), value: fresh(r.int(2) === 0 ? 'free' : 'pro') },
      { key: fresh('telltale.step.side_effect'), value: r.int(4) === 0 },
    ];
    const extra = r.int(11);
    for (let k = 0; k < extra; k++) {
      switch (k % 5) {
        case 0:
          attributes.push({ key: fresh(`gen_ai.usage.tokens_${k}`), value: BigInt(r.int(5000)) });
          break;
        case 1:
          attributes.push({ key: fresh(`gen_ai.request.temperature_${k}`), value: Math.round(r.next() * 100) / 100 });
          break;
        case 2:
          attributes.push({ key: fresh(`tool.argument.${k}`), value: fresh(r.words(3 + r.int(8))) });
          break;
        default:
          attributes.push({ key: fresh(`app.detail.${k}`), value: fresh(r.words(1 + r.int(4))) });
      }
    }
    const events =
      r.int(4) === 0
        ? Array.from({ length: 1 + r.int(3) }, (_, e) => ({
            timeUnixNano: start + BigInt(e + 1) * 1000n,
            name: fresh(e === 0 ? 'gen_ai.content.prompt' : 'retry'),
            attributes: [
              { key: fresh('gen_ai.prompt'), value: fresh(r.words(10 + r.int(30))) },
              { key: fresh('attempt'), value: BigInt(e) },
            ],
          }))
        : [];
    spans.push({
      projectId: request.projectId,
      traceId,
      spanId: r.hex(16),
      parentSpanId: i % 20 === 0 ? '' : r.hex(16),
      traceState: '',
      runId: fresh(runId),
      isRunRoot: i % 20 === 0,
      serviceName: request.serviceName,
      name: fresh(`${stepKind} ${r.int(12)}`),
      spanKind: stepKind === 'llm' ? 3 : 1,
      stepKind: fresh(stepKind),
      stepName: fresh(`${stepKind}-${r.int(12)}`),
      attempt: 1 + r.int(3),
      toolName: stepKind === 'tool' ? fresh('search_orders') : '',
      toolArgsHash: stepKind === 'tool' ? r.hex(16) : '',
      stateHash: r.hex(16),
      outputHash: r.hex(16),
      sideEffect: r.int(4) === 0,
      model: fresh(model),
      provider: model === '' ? '' : fresh('openai'),
      inputTokens: model === '' ? 0 : r.int(4000),
      outputTokens: model === '' ? 0 : r.int(800),
      cachedInputTokens: model === '' ? 0 : r.int(1000),
      costUsd: model === '' ? null : r.next() / 100,
      startTimeUnixNano: start,
      endTimeUnixNano: start + BigInt(1 + r.int(5_000_000_000)),
      statusCode: r.int(10) === 0 ? 2 : 1,
      statusMessage: '',
      errorType: '',
      runOutcome: i % 20 === 0 ? fresh('success') : '',
      attributes,
      resourceAttributes: resource,
      scopeName: request.scopeName,
      scopeVersion: request.scopeVersion,
      events,
      links: r.int(20) === 0 ? [{ traceId: r.hex(32), spanId: r.hex(16), traceState: '', attributes: [] }] : [],
      droppedAttributesCount: 0,
      droppedEventsCount: 0,
      droppedLinksCount: 0,
    });
  }
  return spans;
}
