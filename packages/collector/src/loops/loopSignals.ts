import { StepKind } from '@telltale/semconv';
import type { SpanRecord } from '@telltale/store/encode';

/** 1 tool, 2 plan, 3 validate: the steps loop detection looks at (as the stored detection does). */
export type LoopStepKind = 1 | 2 | 3;

/** What live loop detection needs of one tool / plan / validate span. */
export interface LoopStep {
  runId: string;
  startNs: bigint;
  spanId: string;
  kind: LoopStepKind;
  failed: boolean;
  /** Tool name (else step name) for tools; '' otherwise. */
  tool: string;
  /** Tools: the arguments hash; '' when unknown. */
  argsHash: string;
  /** Plan and validate: the state hash; '' when unknown. */
  stateHash: string;
  /** Validate: the output hash; '' when unknown. */
  outputHash: string;
}

/** The loop-relevant part of an accepted export request: small, so it crosses from a worker thread cheaply. */
export interface LoopSignals {
  projectId: string;
  steps: LoopStep[];
  /** Runs whose run span arrived: they have ended. */
  endedRuns: string[];
  /** Service per run, for alert labels. */
  services: Record<string, string>;
}

const KIND_CODE: Partial<Record<string, LoopStepKind>> = {
  [StepKind.tool]: 1,
  [StepKind.plan]: 2,
  [StepKind.validate]: 3,
};

/** Extracts the loop signals of a request's spans (in the worker, next to the encoding). */
export function loopSignalsOf(
  projectId: string,
  spans: ReadonlyArray<
    Pick<
      SpanRecord,
      | 'stepKind'
      | 'runId'
      | 'serviceName'
      | 'startTimeUnixNano'
      | 'spanId'
      | 'statusCode'
      | 'toolName'
      | 'stepName'
      | 'toolArgsHash'
      | 'stateHash'
      | 'outputHash'
    >
  >,
): LoopSignals {
  const steps: LoopStep[] = [];
  const endedRuns: string[] = [];
  const services: Record<string, string> = {};
  for (const s of spans) {
    if (s.stepKind === StepKind.run) {
      endedRuns.push(s.runId);
      continue;
    }
    const kind = KIND_CODE[s.stepKind];
    if (kind === undefined) continue;
    services[s.runId] ??= s.serviceName;
    steps.push({
      runId: s.runId,
      startNs: s.startTimeUnixNano,
      spanId: s.spanId,
      kind,
      failed: s.statusCode === 2,
      tool: kind === 1 ? s.toolName || s.stepName : '',
      argsHash: kind === 1 ? s.toolArgsHash : '',
      stateHash: kind === 1 ? '' : s.stateHash,
      outputHash: kind === 3 ? s.outputHash : '',
    });
  }
  return { projectId, steps, endedRuns, services };
}
