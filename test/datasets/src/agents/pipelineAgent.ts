import type { AgentSpec } from '../DatasetSpec.js';
import { ALWAYS, eventual, latency, llm, step } from './stepHelpers.js';

/** Eventual success of the six steps, in order: Π = 0.8241. */
export const PIPELINE_EVENTUAL_SUCCESS = [0.98, 0.95, 0.97, 0.96, 0.97, 0.98] as const;

/**
 * The classic six-step pipeline: every run has exactly one group of each step
 * (k = 1), no seams, no fallbacks, so observed ≈ predicted ≈ 0.8241.
 * `web.fetch` has a heavy latency tail (3% of calls 40–120× slower): it is the
 * tail driver of the run-duration p99.
 */
export function pipelineAgent(): AgentSpec {
  const [p1, p2, p3, p4, p5, p6] = PIPELINE_EVENTUAL_SUCCESS;
  return {
    name: 'research-report',
    service: 'research-svc',
    projectId: 'proj-acme',
    weight: 0.3,
    attemptNumbers: true,
    steps: [
      step('plan', 'outline', {
        ...eventual(p1, 0.5, 2),
        latency: latency(700),
        llm: llm('gpt-4o-mini', [800, 2000], [150, 400]),
      }),
      step('retrieval', 'search-docs', { ...eventual(p2, 0.6, 3), latency: latency(300) }),
      step('llm', 'draft', {
        ...eventual(p3, 0.7, 3),
        latency: latency(2500),
        llm: llm('gpt-4o', [2000, 6000], [500, 1500]),
      }),
      step('tool', 'web.fetch', {
        ...eventual(p4, 0.5, 2),
        latency: latency(250, 0.3, { probability: 0.03, multiplierMin: 40, multiplierMax: 120 }),
        toolCostUsd: 0.001,
      }),
      step('validate', 'fact-check', {
        ...eventual(p5, 0.5, 2),
        latency: latency(1200),
        llm: llm('claude-sonnet-4', [1500, 4000], [50, 200], 0.8),
      }),
      step('act', 'publish', {
        ...eventual(p6, 0.5, 2),
        latency: latency(150),
        children: [step('tool', 'cms.post', { ...ALWAYS, latency: latency(200) })],
      }),
    ],
    seamFailureRate: 0,
    seamErrorTypes: [],
    fallbackRate: 0,
    incompleteRate: 0.02,
    proShare: 0.3,
    tailDriver: 'web.fetch',
  };
}
