import type { SpanRecord } from '../spans/SpanRecord.js';
import { makeSpan } from './makeSpan.js';

let nextId = 1;
const hex16 = (): string => (nextId++).toString(16).padStart(16, '0');

/**
 * Builds one run as the SDK would record it: a root span and child steps laid
 * out one after another, each 1 ms apart. `steps` lists [kind, name, ok, extra].
 */
export function buildRun(opts: {
  runId: string;
  agent?: string;
  service?: string;
  projectId?: string;
  startNs: bigint;
  rootOk?: boolean;
  withRoot?: boolean;
  steps: Array<{ kind: string; name: string; ok?: boolean; attempt?: number; extra?: Partial<SpanRecord> }>;
}): SpanRecord[] {
  const traceId = opts.runId
    .replace(/[^0-9a-f]/g, '')
    .padEnd(32, 'a')
    .slice(0, 32);
  const rootId = hex16();
  const common = { projectId: opts.projectId ?? 'p1', traceId, runId: opts.runId, serviceName: opts.service ?? 'svc' };
  const spans: SpanRecord[] = [];
  let t = opts.startNs + 1_000n;
  for (const step of opts.steps) {
    spans.push(
      makeSpan({
        ...common,
        spanId: hex16(),
        parentSpanId: rootId,
        name: step.name,
        stepKind: step.kind,
        stepName: step.name,
        attempt: step.attempt ?? 1,
        statusCode: step.ok === false ? 2 : 1,
        startTimeUnixNano: t,
        endTimeUnixNano: t + 1_000_000n,
        ...step.extra,
      }),
    );
    t += 1_000_000n;
  }
  if (opts.withRoot !== false) {
    spans.push(
      makeSpan({
        ...common,
        spanId: rootId,
        name: opts.agent ?? 'agent',
        stepKind: 'run',
        isRunRoot: true,
        statusCode: opts.rootOk === false ? 2 : 1,
        startTimeUnixNano: opts.startNs,
        endTimeUnixNano: t + 1_000n,
      }),
    );
  }
  return spans;
}
