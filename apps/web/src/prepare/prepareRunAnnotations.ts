import type { FailureCause, LoopKind } from '@telltale/semconv';
import type { RunCauses, RunLoopFlags } from '@telltale/api-contract';
import type { RunAnnotations } from './prepareRunsTable';

/** Failure causes and loop kinds by run id, from the two per-run analytics answers (either may still be loading). */
export function prepareRunAnnotations(causes: RunCauses | undefined, loops: RunLoopFlags | undefined): RunAnnotations {
  return {
    causes: new Map<string, FailureCause>((causes?.runs ?? []).map((r) => [r.runId, r.cause])),
    loops: new Map<string, readonly LoopKind[]>((loops?.runs ?? []).map((r) => [r.runId, r.kinds])),
  };
}
