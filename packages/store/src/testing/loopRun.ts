import type { SpanRecord } from '../spans/SpanRecord.js';
import { makeSpan } from './makeSpan.js';

const MS = 1_000_000n;

/** One step of a hand-built run: kind, name (the tool name for tools), and what loop detection looks at. */
export interface LoopRunStep {
  kind: string;
  name: string;
  args?: string;
  state?: string;
  output?: string;
  ok?: boolean;
  attempt?: number;
  costUsd?: number;
  sideEffect?: boolean;
  errorType?: string;
  /** Default 1 ms. */
  durationMs?: number;
  /** Default: 10 ms after the previous step's start. */
  startMs?: number;
}

let nextId = 0x1000;

/**
 * A run as the SDK records it: a root (kind `run`, named after the agent;
 * none when `incomplete`) and its steps as the root's children, 10 ms apart.
 * Span ids are 16 hex digits, unique across calls.
 */
export function loopRun(opts: {
  runId: string;
  startNs: bigint;
  agent?: string;
  service?: string;
  projectId?: string;
  ok?: boolean;
  incomplete?: boolean;
  rootErrorType?: string;
  steps: readonly LoopRunStep[];
}): SpanRecord[] {
  const rootId = (nextId++).toString(16).padStart(16, '0');
  const common = {
    projectId: opts.projectId ?? 'p1',
    runId: opts.runId,
    traceId: opts.runId.padEnd(32, '0').slice(0, 32),
    serviceName: opts.service ?? 'svc',
  };
  const spans: SpanRecord[] = [];
  let startMs = 1;
  let endMs = 1;
  for (const s of opts.steps) {
    startMs = s.startMs ?? startMs;
    const stepEnd = startMs + (s.durationMs ?? 1);
    endMs = Math.max(endMs, stepEnd);
    spans.push(
      makeSpan({
        ...common,
        spanId: (nextId++).toString(16).padStart(16, '0'),
        parentSpanId: rootId,
        name: s.kind === 'tool' ? `execute_tool ${s.name}` : s.name,
        stepKind: s.kind,
        stepName: s.name,
        attempt: s.attempt ?? 1,
        toolName: s.kind === 'tool' ? s.name : '',
        toolArgsHash: s.args ?? '',
        stateHash: s.state ?? '',
        outputHash: s.output ?? '',
        sideEffect: s.sideEffect ?? false,
        costUsd: s.costUsd ?? null,
        statusCode: s.ok === false ? 2 : 1,
        errorType: s.errorType ?? (s.ok === false ? 'Error' : ''),
        startTimeUnixNano: opts.startNs + BigInt(Math.round(startMs * 1000)) * (MS / 1000n),
        endTimeUnixNano: opts.startNs + BigInt(Math.round(stepEnd * 1000)) * (MS / 1000n),
      }),
    );
    startMs += 10;
  }
  if (opts.incomplete !== true) {
    spans.push(
      makeSpan({
        ...common,
        spanId: rootId,
        name: opts.agent ?? 'agent',
        stepKind: 'run',
        stepName: opts.agent ?? 'agent',
        isRunRoot: true,
        statusCode: opts.ok === false ? 2 : 1,
        errorType: opts.rootErrorType ?? '',
        startTimeUnixNano: opts.startNs,
        endTimeUnixNano: opts.startNs + BigInt(endMs + 1) * MS,
      }),
    );
  }
  return spans;
}
