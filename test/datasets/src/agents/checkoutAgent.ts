import type { AgentSpec } from '../DatasetSpec.js';
import { latency, llm, step } from './stepHelpers.js';

/**
 * Side effects: `charge-card` succeeds before later steps (sending the
 * receipt, validating the order) fail — those failed runs are
 * partial_execution, whatever else failed.
 */
export function checkoutAgent(): AgentSpec {
  return {
    name: 'checkout',
    service: 'shop',
    projectId: 'proj-acme',
    weight: 0.12,
    attemptNumbers: true,
    steps: [
      step('plan', 'build-cart', {
        firstAttemptSuccess: 0.99,
        retrySuccess: 0.5,
        maxAttempts: 2,
        latency: latency(500),
        llm: llm('gpt-4o-mini', [600, 1500], [80, 200]),
      }),
      step('tool', 'inventory.reserve', {
        firstAttemptSuccess: 0.95,
        retrySuccess: 0.7,
        maxAttempts: 2,
        latency: latency(120),
      }),
      step('act', 'charge-card', {
        firstAttemptSuccess: 0.97,
        retrySuccess: 0.6,
        maxAttempts: 2,
        latency: latency(700),
        sideEffect: true,
        errorTypes: ['CardDeclined', 'Timeout'],
      }),
      step('tool', 'email.send', {
        firstAttemptSuccess: 0.9,
        retrySuccess: 0.5,
        maxAttempts: 2,
        latency: latency(200),
        toolCostUsd: 0.0004,
      }),
      step('validate', 'order-check', {
        firstAttemptSuccess: 0.93,
        retrySuccess: 0.5,
        maxAttempts: 2,
        latency: latency(300),
      }),
    ],
    seamFailureRate: 0.03,
    seamErrorTypes: ['WebhookTimeout', 'StateSyncError'],
    fallbackRate: 0.1,
    incompleteRate: 0.02,
    proShare: 0.3,
  };
}
