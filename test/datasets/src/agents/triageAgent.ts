import type { AgentSpec } from '../DatasetSpec.js';
import { ALWAYS, eventual, latency, llm, step } from './stepHelpers.js';

/**
 * A branching agent: 60% of runs answer from the knowledge base, 40% hand off
 * to a specialist (a `handoff` span that also carries its llm child's usage —
 * counted once, on the child); `enrich` runs in half the runs, with two tool
 * calls in parallel (self time of `enrich` is its duration minus the union).
 */
export function triageAgent(): AgentSpec {
  return {
    name: 'ticket-triage',
    service: 'helpdesk',
    projectId: 'proj-acme',
    weight: 0.14,
    attemptNumbers: true,
    steps: [
      step('llm', 'classify', {
        ...eventual(0.99, 0.8, 3),
        latency: latency(600),
        llm: llm('gpt-4o-mini', [500, 1500], [20, 80]),
      }),
      {
        type: 'branch',
        paths: [
          {
            weight: 0.6,
            steps: [
              step('tool', 'kb.lookup', { ...eventual(0.97, 0.5, 2), latency: latency(180) }),
              step('llm', 'compose-answer', {
                ...eventual(0.98, 0.7, 2),
                latency: latency(1500),
                llm: llm('gpt-4o-mini', [1500, 3500], [200, 600]),
              }),
            ],
          },
          {
            weight: 0.4,
            steps: [
              step('handoff', 'specialist', {
                firstAttemptSuccess: 0.96,
                retrySuccess: 0,
                maxAttempts: 1,
                latency: latency(100),
                aggregatesChildUsage: true,
                children: [
                  step('llm', 'specialist-reason', {
                    ...ALWAYS,
                    latency: latency(2200),
                    llm: llm('claude-sonnet-4', [3000, 8000], [400, 1200], 0.6),
                  }),
                  step('tool', 'ticket.create', { ...ALWAYS, latency: latency(250) }),
                ],
              }),
            ],
          },
        ],
      },
      step('act', 'enrich', {
        ...eventual(0.99, 0.5, 2),
        include: 0.5,
        latency: latency(40),
        parallelChildren: true,
        children: [
          step('tool', 'crm.lookup', { ...ALWAYS, latency: latency(220) }),
          step('tool', 'billing.lookup', { ...ALWAYS, latency: latency(260) }),
        ],
      }),
      step('llm', 'reply', {
        ...eventual(0.99, 0.8, 2),
        latency: latency(900),
        llm: llm('gpt-4o-mini', [800, 2000], [100, 300]),
      }),
    ],
    seamFailureRate: 0.03,
    seamErrorTypes: ['HandoffError', 'AgentTimeout', ''],
    fallbackRate: 0.3,
    incompleteRate: 0.02,
    proShare: 0.4,
  };
}
