import { expect } from 'vitest';
import type { TelltaleProcess } from './TelltaleProcess.js';

/** A run as `GET /api/v1/runs` lists it. */
export interface ApiRun {
  runId: string;
  traceId: string;
  name: string;
  service: string;
  outcome: string;
  steps: number;
  spans: number;
  costUsd: number;
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
  unpricedSpans: number;
  sessionId: string;
}

/** A span as `GET /api/v1/runs/:runId` returns it (the fields the interop tests read). */
export interface ApiSpan {
  spanId: string;
  parentSpanId: string;
  name: string;
  stepKind: string;
  stepName: string;
  toolName: string;
  toolArgsHash: string;
  model: string;
  provider: string;
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
  reasoningTokens: number;
  costUsd: number | null;
  sessionId: string;
  status: { code: string };
}

export interface ApiSession {
  sessionId: string;
  runs: number;
  successRuns: number;
  costUsd: number;
  inputTokens: number;
  outputTokens: number;
  agents: string[];
}

export async function listRuns(telltale: TelltaleProcess, query = ''): Promise<ApiRun[]> {
  const { status, body } = await telltale.getJson<{ runs: ApiRun[] }>(`/api/v1/runs?limit=100${query}`);
  expect(status).toBe(200);
  return body.runs;
}

export async function runSpans(telltale: TelltaleProcess, runId: string): Promise<ApiSpan[]> {
  const { status, body } = await telltale.getJson<{ spans: ApiSpan[] }>(`/api/v1/runs/${encodeURIComponent(runId)}`);
  expect(status).toBe(200);
  return body.spans;
}

export async function listSessions(telltale: TelltaleProcess): Promise<ApiSession[]> {
  const { status, body } = await telltale.getJson<{ sessions: ApiSession[] }>('/api/v1/sessions');
  expect(status).toBe(200);
  return body.sessions;
}

/** Prices per million tokens for `model` (a project override), so expected costs are exact. */
export async function setPrice(
  telltale: TelltaleProcess,
  model: string,
  perMTok: { input: number; cached: number; output: number },
): Promise<void> {
  const res = await fetch(`${telltale.url}/api/v1/prices/${encodeURIComponent(model)}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      inputPerMTok: perMTok.input,
      cachedInputPerMTok: perMTok.cached,
      outputPerMTok: perMTok.output,
    }),
  });
  expect(res.status).toBe(200);
}

/** Steps of a run as `kind:name` in start order of the API's listing (it sorts by start time). */
export function stepsOf(spans: readonly ApiSpan[]): string[] {
  return spans.filter((s) => s.stepKind !== '').map((s) => `${s.stepKind}:${s.stepName}`);
}

/** Σ usage of the spans the run's totals count: step spans that are not aggregates (run, handoff). */
export function countedUsage(spans: readonly ApiSpan[]): { input: number; output: number } {
  const counted = spans.filter((s) => !['', 'run', 'handoff'].includes(s.stepKind));
  return {
    input: counted.reduce((n, s) => n + s.inputTokens, 0),
    output: counted.reduce((n, s) => n + s.outputTokens, 0),
  };
}

/** Cost of `calls` calls at `perMTok` prices: uncached input, cached input and output tokens. */
export function costOf(
  usage: { input: number; cached: number; output: number },
  perMTok: { input: number; cached: number; output: number },
): number {
  return (
    ((usage.input - usage.cached) * perMTok.input + usage.cached * perMTok.cached + usage.output * perMTok.output) / 1e6
  );
}
