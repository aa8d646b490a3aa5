import type { AgentSpec } from '../DatasetSpec.js';
import { latency, llm, step } from './stepHelpers.js';

/**
 * A retry-heavy agent: llm calls hit rate limits and time out (attempts 1…4),
 * seam failures and fallback recoveries happen, 35% of runs wrap each llm
 * group in a step-less `ai.generateText` span carrying the group's usage, and
 * 30% of roots carry the whole run's usage (both must not be counted).
 */
export function supportAgent(): AgentSpec {
  return {
    name: 'support-bot',
    service: 'support',
    projectId: 'proj-globex',
    weight: 0.14,
    attemptNumbers: true,
    steps: [
      step('llm', 'understand', {
        firstAttemptSuccess: 0.7,
        retrySuccess: 0.8,
        maxAttempts: 4,
        errorTypes: ['RateLimitError', 'Timeout'],
        latency: latency(900),
        llm: llm('gpt-4o', [1000, 3000], [100, 300]),
      }),
      step('tool', 'orders.get', {
        firstAttemptSuccess: 0.85,
        retrySuccess: 0.7,
        maxAttempts: 2,
        errorTypes: ['Timeout', 'HTTPError'],
        latency: latency(150),
      }),
      step('retrieval', 'policy-search', {
        firstAttemptSuccess: 0.9,
        retrySuccess: 0.5,
        maxAttempts: 2,
        latency: latency(250),
      }),
      step('llm', 'respond', {
        firstAttemptSuccess: 0.8,
        retrySuccess: 0.75,
        maxAttempts: 3,
        latency: latency(2000),
        llm: llm('claude-sonnet-4', [2500, 7000], [300, 900], 0.7),
      }),
      step('guardrail', 'pii-guard', {
        firstAttemptSuccess: 0.995,
        retrySuccess: 0,
        maxAttempts: 1,
        latency: latency(30),
      }),
    ],
    seamFailureRate: 0.04,
    seamErrorTypes: ['AgentTimeout', 'HandoffError', ''],
    fallbackRate: 0.4,
    incompleteRate: 0.03,
    proShare: 0.25,
    usageWrapperRate: 0.35,
    rootUsageRate: 0.3,
  };
}
