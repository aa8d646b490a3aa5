import type { AgentSpec, LoopInjectionSpec } from '../DatasetSpec.js';
import { latency, llm, step } from './stepHelpers.js';

export const CODER_LOOP_RATES: LoopInjectionSpec['rates'] = {
  repeatedAction: 0.04,
  pingPong: 0.04,
  noProgressState: 0.04,
  noProgressValidation: 0.04,
  runaway: 0.04,
};

/**
 * An iterating agent (plan → execute → tool, 2–5 times, then tests) with every
 * kind of loop injected into known runs. Clean runs rotate through three
 * tools with fresh arguments and state hashes, so they trigger no detector.
 */
export function coderAgent(
  opts: { iterations?: readonly [number, number]; name?: string; service?: string } = {},
): AgentSpec {
  const [min, max] = opts.iterations ?? [2, 5];
  const name = opts.name ?? 'code-fixer';
  const prefix = opts.name === undefined ? '' : `${opts.name}.`;
  return {
    name,
    service: opts.service ?? 'coding-agent',
    projectId: 'proj-globex',
    weight: 0.2,
    attemptNumbers: true,
    steps: [
      step('llm', `${prefix}read-issue`, {
        firstAttemptSuccess: 0.97,
        retrySuccess: 0.8,
        maxAttempts: 2,
        latency: latency(1500),
        llm: llm('gpt-4o', [2000, 5000], [200, 500]),
      }),
      {
        type: 'repeat',
        min,
        max,
        body: [
          step('plan', `${prefix}next-step`, {
            firstAttemptSuccess: 0.99,
            retrySuccess: 0.5,
            maxAttempts: 2,
            latency: latency(600),
            llm: llm('gpt-4o-mini', [1500, 4000], [100, 300], 0.7),
          }),
          step('act', `${prefix}execute`, {
            firstAttemptSuccess: 0.99,
            retrySuccess: 0.5,
            maxAttempts: 2,
            latency: latency(20),
            children: [
              step('tool', `${prefix}tool`, {
                firstAttemptSuccess: 0.95,
                retrySuccess: 0.6,
                maxAttempts: 2,
                latency: latency(350),
                rotate: [`${prefix}code.search`, `${prefix}fs.read`, `${prefix}tests.run`],
              }),
            ],
          }),
        ],
      },
      step('validate', `${prefix}tests-pass`, {
        firstAttemptSuccess: 0.9,
        retrySuccess: 0.6,
        maxAttempts: 4,
        latency: latency(2500),
      }),
    ],
    seamFailureRate: 0.02,
    seamErrorTypes: ['ContextOverflow'],
    fallbackRate: 0,
    incompleteRate: 0.02,
    proShare: 0.35,
    loops: { rates: CODER_LOOP_RATES, failureRate: 0.7, validateStep: `${prefix}tests-pass` },
  };
}
