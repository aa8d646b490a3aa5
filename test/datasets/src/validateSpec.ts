import type { AgentSpec, DatasetSpec, StepNode, StepSpec } from './DatasetSpec.js';

const MAX_WINDOW_NS = 29n * 24n * 3_600_000_000_000n;

function probability(where: string, p: number): void {
  if (!(p >= 0 && p <= 1)) throw new RangeError(`${where}: probability must be in [0, 1], got ${p}`);
}

function checkStep(agent: AgentSpec, s: StepSpec, inRepeat: boolean): void {
  const where = `agent ${agent.name}, step ${s.name}`;
  probability(`${where} firstAttemptSuccess`, s.firstAttemptSuccess);
  probability(`${where} retrySuccess`, s.retrySuccess);
  probability(`${where} include`, s.include ?? 1);
  if (!Number.isInteger(s.maxAttempts) || s.maxAttempts < 1)
    throw new RangeError(`${where}: maxAttempts must be an integer ≥ 1`);
  if (s.errorTypes.length === 0 && s.firstAttemptSuccess < 1)
    throw new RangeError(`${where}: a step that can fail needs error types`);
  if (!(s.latency.medianMs > 0 && s.latency.sigma >= 0))
    throw new RangeError(`${where}: latency median must be > 0 and sigma ≥ 0`);
  if (s.kind === 'llm' && s.llm === undefined) throw new RangeError(`${where}: llm steps need an llm spec`);
  if (s.aggregatesChildUsage === true && s.kind !== 'handoff')
    throw new RangeError(`${where}: only handoff spans may carry their children's usage`);
  if (s.rotate !== undefined && (s.kind !== 'tool' || !inRepeat || s.rotate.length === 0))
    throw new RangeError(`${where}: rotate is for tool steps inside a repeat`);
}

function walk(agent: AgentSpec, nodes: readonly StepNode[], inRepeat: boolean, visit: (s: StepSpec) => void): void {
  for (const n of nodes) {
    if (n.type === 'branch') {
      if (n.paths.length === 0 || n.paths.some((p) => !(p.weight > 0)))
        throw new RangeError(`agent ${agent.name}: a branch needs paths with positive weights`);
      for (const p of n.paths) walk(agent, p.steps, inRepeat, visit);
    } else if (n.type === 'repeat') {
      if (!Number.isInteger(n.min) || !Number.isInteger(n.max) || n.min < 0 || n.max < n.min)
        throw new RangeError(`agent ${agent.name}: repeat needs integers 0 ≤ min ≤ max`);
      walk(agent, n.body, true, visit);
    } else {
      checkStep(agent, n, inRepeat);
      visit(n);
      walk(agent, n.children ?? [], inRepeat, visit);
    }
  }
}

/**
 * Rejects specs whose truth would be ambiguous or whose data would be
 * unrealistic: step names must be unique across the dataset (so a step's
 * numbers never pool two agents), agent names unique, the window at most 29
 * days (the store keeps 30).
 */
export function validateSpec(spec: DatasetSpec): void {
  if (!Number.isInteger(spec.seed) || spec.seed < 0 || spec.seed > 0xffffffff)
    throw new RangeError('seed must be a 32-bit unsigned integer');
  if (!Number.isInteger(spec.runs) || spec.runs < 0) throw new RangeError('runs must be a non-negative integer');
  if (spec.endNs <= spec.startNs) throw new RangeError('the window must end after it starts');
  if (spec.endNs - spec.startNs > MAX_WINDOW_NS)
    throw new RangeError('the window may span at most 29 days (the spans table keeps 30)');
  if (spec.agents.length === 0) throw new RangeError('a dataset needs at least one agent');
  const t = spec.thresholds;
  for (const [k, v] of Object.entries(t))
    if (!(Number.isInteger(v) && v >= 1)) throw new RangeError(`threshold ${k} must be an integer ≥ 1`);
  const p = spec.cost.prices;
  if (
    p.input.length !== p.models.length ||
    p.output.length !== p.models.length ||
    p.cachedInput.length !== p.models.length
  )
    throw new RangeError('price table columns must have one entry per model');
  probability('cost.explicitShare', spec.cost.explicitShare);
  const agentNames = new Set<string>();
  const stepNames = new Map<string, string>();
  for (const agent of spec.agents) {
    if (agentNames.has(agent.name)) throw new RangeError(`duplicate agent name ${agent.name}`);
    agentNames.add(agent.name);
    if (!(agent.weight > 0)) throw new RangeError(`agent ${agent.name}: weight must be > 0`);
    for (const [k, v] of [
      ['seamFailureRate', agent.seamFailureRate],
      ['fallbackRate', agent.fallbackRate],
      ['incompleteRate', agent.incompleteRate],
      ['proShare', agent.proShare],
      ['usageWrapperRate', agent.usageWrapperRate ?? 0],
      ['rootUsageRate', agent.rootUsageRate ?? 0],
    ] as const) {
      probability(`agent ${agent.name} ${k}`, v);
    }
    if (agent.seamFailureRate > 0 && agent.seamErrorTypes.length === 0)
      throw new RangeError(`agent ${agent.name}: seam failures need error types ('' = declared failure)`);
    const own = new Set<string>();
    walk(agent, agent.steps, false, (s) => {
      for (const name of s.rotate ?? [s.name]) {
        const other = stepNames.get(name);
        if (other !== undefined && other !== agent.name)
          throw new RangeError(`step name ${name} is used by agents ${other} and ${agent.name}`);
        if (own.has(name) && s.rotate === undefined)
          throw new RangeError(`agent ${agent.name}: step name ${name} appears twice in the spec`);
        own.add(name);
        stepNames.set(name, agent.name);
      }
    });
    if (agent.loops !== undefined) {
      const r = agent.loops.rates;
      const total = r.repeatedAction + r.pingPong + r.noProgressState + r.noProgressValidation + r.runaway;
      if (!(total <= 1)) throw new RangeError(`agent ${agent.name}: loop rates sum to more than 1`);
      probability(`agent ${agent.name} loops.failureRate`, agent.loops.failureRate);
      if (!own.has(agent.loops.validateStep))
        throw new RangeError(
          `agent ${agent.name}: loops.validateStep ${agent.loops.validateStep} is not one of its steps`,
        );
    }
  }
}
