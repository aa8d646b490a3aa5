import type { AgentSpec } from '../DatasetSpec.js';
import { ALWAYS, latency, llm, step } from './stepHelpers.js';

/**
 * An agent instrumented without attempt numbers (attempt 0): a retry is the
 * next sibling with the same step name. Its `label` step runs a self-hosted
 * model missing from the price table (unpriced unless its cost is explicit).
 */
export function legacyAgent(): AgentSpec {
  return {
    name: 'nightly-batch',
    service: 'batch-worker',
    projectId: 'proj-globex',
    weight: 0.1,
    attemptNumbers: false,
    steps: [
      step('retrieval', 'fetch-batch', {
        firstAttemptSuccess: 0.9,
        retrySuccess: 0.6,
        maxAttempts: 3,
        latency: latency(400),
      }),
      step('llm', 'label', {
        firstAttemptSuccess: 0.95,
        retrySuccess: 0.8,
        maxAttempts: 2,
        latency: latency(300),
        llm: llm('llama-3.1-8b', [300, 900], [10, 40], 0),
      }),
      step('act', 'transform', {
        firstAttemptSuccess: 0.97,
        retrySuccess: 0.5,
        maxAttempts: 2,
        latency: latency(60),
        children: [
          step('llm', 'summarize', {
            ...ALWAYS,
            latency: latency(800),
            llm: llm('gpt-4o-mini', [600, 1800], [80, 250]),
          }),
        ],
      }),
      step('tool', 'db.write', { firstAttemptSuccess: 0.95, retrySuccess: 0.6, maxAttempts: 3, latency: latency(80) }),
      step('validate', 'row-check', {
        firstAttemptSuccess: 0.97,
        retrySuccess: 0.5,
        maxAttempts: 2,
        latency: latency(50),
      }),
    ],
    seamFailureRate: 0.02,
    seamErrorTypes: ['DeadlockTimeout', 'WorkerCrashed'],
    fallbackRate: 0,
    incompleteRate: 0.02,
    proShare: 0.5,
  };
}
