import type { AgentSpec } from '../DatasetSpec.js';
import { coderAgent } from './coderAgent.js';
import { ALWAYS, latency, llm, step } from './stepHelpers.js';

/** A long research run: 17–36 iterations of think → investigate (tool + extract), 4 spans each. */
function deepResearchAgent(): AgentSpec {
  return {
    name: 'deep-research',
    service: 'research-svc',
    projectId: 'proj-acme',
    weight: 0.3,
    attemptNumbers: true,
    steps: [
      step('plan', 'research-plan', {
        firstAttemptSuccess: 0.99,
        retrySuccess: 0.5,
        maxAttempts: 2,
        latency: latency(900),
        llm: llm('gpt-4o', [1000, 3000], [200, 600]),
      }),
      {
        type: 'repeat',
        min: 17,
        max: 36,
        body: [
          step('llm', 'think', {
            firstAttemptSuccess: 0.97,
            retrySuccess: 0.9,
            maxAttempts: 3,
            latency: latency(700),
            llm: llm('gpt-4o-mini', [2000, 6000], [100, 400], 0.8),
          }),
          step('act', 'investigate', {
            firstAttemptSuccess: 0.999,
            retrySuccess: 0.9,
            maxAttempts: 2,
            latency: latency(15),
            children: [
              step('tool', 'source', {
                firstAttemptSuccess: 0.97,
                retrySuccess: 0.8,
                maxAttempts: 2,
                latency: latency(300, 0.5, { probability: 0.01, multiplierMin: 10, multiplierMax: 30 }),
                rotate: ['web.search', 'web.open', 'pdf.read'],
              }),
              step('llm', 'extract', {
                ...ALWAYS,
                latency: latency(500),
                llm: llm('gpt-4o-mini', [1500, 4000], [100, 300], 0.3),
              }),
            ],
          }),
        ],
      },
      step('validate', 'cite-check', {
        firstAttemptSuccess: 0.95,
        retrySuccess: 0.6,
        maxAttempts: 2,
        latency: latency(800),
      }),
      step('llm', 'write-report', {
        firstAttemptSuccess: 0.95,
        retrySuccess: 0.8,
        maxAttempts: 3,
        latency: latency(6000),
        llm: llm('claude-sonnet-4', [8000, 20000], [1500, 4000], 0.5),
      }),
    ],
    seamFailureRate: 0.02,
    seamErrorTypes: ['AgentTimeout', ''],
    fallbackRate: 0.2,
    incompleteRate: 0.01,
    proShare: 0.3,
    tailDriver: 'write-report',
  };
}

/** A conversation: 20–36 turns of (wrapped) llm → rotating tool → guardrail. */
function chatSupportAgent(): AgentSpec {
  return {
    name: 'chat-support',
    service: 'support',
    projectId: 'proj-globex',
    weight: 0.25,
    attemptNumbers: true,
    steps: [
      {
        type: 'repeat',
        min: 20,
        max: 36,
        body: [
          step('llm', 'turn', {
            firstAttemptSuccess: 0.9,
            retrySuccess: 0.9,
            maxAttempts: 3,
            errorTypes: ['RateLimitError', 'Timeout'],
            latency: latency(1100),
            llm: llm('gpt-4o', [1500, 5000], [80, 300], 0.9),
          }),
          step('tool', 'support-tool', {
            firstAttemptSuccess: 0.98,
            retrySuccess: 0.7,
            maxAttempts: 2,
            latency: latency(120),
            rotate: ['orders.lookup', 'refunds.check', 'faq.search'],
          }),
          step('guardrail', 'turn-guard', {
            firstAttemptSuccess: 0.9995,
            retrySuccess: 0,
            maxAttempts: 1,
            latency: latency(25),
          }),
        ],
      },
    ],
    seamFailureRate: 0.03,
    seamErrorTypes: ['AgentTimeout', 'HandoffError'],
    fallbackRate: 0.3,
    incompleteRate: 0.02,
    proShare: 0.25,
    usageWrapperRate: 0.35,
    rootUsageRate: 0.3,
  };
}

/** A batch job without attempt numbers: 26–48 records of lookup → enrich → update. */
function bulkEnrichAgent(): AgentSpec {
  return {
    name: 'bulk-enrich',
    service: 'batch-worker',
    projectId: 'proj-acme',
    weight: 0.2,
    attemptNumbers: false,
    steps: [
      {
        type: 'repeat',
        min: 26,
        max: 48,
        body: [
          step('retrieval', 'lookup-record', {
            firstAttemptSuccess: 0.995,
            retrySuccess: 0.9,
            maxAttempts: 3,
            latency: latency(60),
          }),
          step('llm', 'enrich-record', {
            firstAttemptSuccess: 0.99,
            retrySuccess: 0.9,
            maxAttempts: 2,
            latency: latency(400),
            llm: llm('claude-3-5-haiku', [400, 1200], [50, 150], 0.6),
          }),
          step('tool', 'crm.update', {
            firstAttemptSuccess: 0.995,
            retrySuccess: 0.9,
            maxAttempts: 2,
            latency: latency(90),
          }),
        ],
      },
    ],
    seamFailureRate: 0.01,
    seamErrorTypes: ['WorkerCrashed'],
    fallbackRate: 0,
    incompleteRate: 0.01,
    proShare: 0.5,
  };
}

/** The bench preset's agents: 60–140 spans per run, about 100 on average. */
export function benchAgents(): AgentSpec[] {
  const coder = coderAgent({ iterations: [24, 44], name: 'bench-coder' });
  return [deepResearchAgent(), chatSupportAgent(), bulkEnrichAgent(), { ...coder, weight: 0.25 }];
}
