import type { AgentSpec, CostSpec, LatencySpec, LlmSpec, RepeatSpec, StepNode, StepSpec } from './DatasetSpec.js';
import type { LoopPlan } from './LoopPlan.js';
import type { Prng } from './Prng.js';
import type { RunIds } from './RunIds.js';
import type { GroupFact, RunRecorder } from './RunRecorder.js';
import { emptyDraft, type SpanDraft } from './buildSpanRecord.js';
import { priceTokens } from './spanCostUsd.js';
import { stepProbabilities, type StepProbabilities } from './stepProbabilities.js';

/** Where a node runs: its parent span, its start (ns from the run start), the iteration of the innermost repeat. */
interface Place {
  parentId: string;
  t: number;
  iteration: number;
  /** Set inside the loop plan's repeat. */
  loop: LoopPlan | undefined;
}

/** A fragment's end, and the error type of its first group that never succeeded. */
export interface Outcome {
  end: number;
  failure: string | undefined;
}

const ownProbabilitiesCache = new WeakMap<StepSpec, StepProbabilities>();

/** The step's own per-attempt probabilities (its children run for real). */
function ownProbabilities(step: StepSpec): StepProbabilities {
  let p = ownProbabilitiesCache.get(step);
  if (p === undefined) {
    p = stepProbabilities({ ...step, children: [] });
    ownProbabilitiesCache.set(step, p);
  }
  return p;
}

const OPERATION: Readonly<Record<string, string>> = {
  llm: 'chat',
  tool: 'execute_tool',
  handoff: 'invoke_agent',
  retrieval: 'retrieval',
};

/** Builds the step spans of one run: attempt groups, children, branches, repeats and injected loops. */
export class StepExecutor {
  /** A side-effect step had a successful attempt. */
  sideEffectOk = false;
  /** Start and status of the latest validate attempt. */
  lastValidate: { start: number; ok: boolean } | undefined;
  /** Step kinds of the groups that never succeeded. */
  readonly failedKinds = new Set<string>();
  private loopRepeatUsed = false;

  constructor(
    private readonly rng: Prng,
    private readonly ids: RunIds,
    private readonly rec: RunRecorder,
    private readonly agent: AgentSpec,
    private readonly cost: CostSpec,
    private readonly opts: { forced: boolean; wrapLlm: boolean; loop: LoopPlan | undefined },
  ) {}

  sequence(nodes: readonly StepNode[], at: Place): Outcome {
    let end = at.t;
    for (const node of nodes) {
      const out = this.node(node, { ...at, t: end + this.gap() });
      if (out.failure !== undefined) return out;
      end = Math.max(end, out.end);
    }
    return { end, failure: undefined };
  }

  private node(node: StepNode, at: Place): Outcome {
    switch (node.type) {
      case 'step':
        return this.step(node, at);
      case 'branch':
        return this.sequence(node.paths[this.rng.weightedIndex(node.paths.map((p) => p.weight))]!.steps, at);
      case 'repeat':
        return this.repeat(node, at);
    }
  }

  private repeat(node: RepeatSpec, at: Place): Outcome {
    const plan = this.opts.loop !== undefined && !this.loopRepeatUsed ? this.opts.loop : undefined;
    if (plan !== undefined) this.loopRepeatUsed = true;
    const count = plan?.iterations ?? this.rng.int(node.min, node.max);
    let end = at.t;
    for (let i = 0; plan?.untilSteps !== undefined ? this.rec.steps <= plan.untilSteps : i < count; i++) {
      const out = this.sequence(node.body, { parentId: at.parentId, t: end, iteration: i, loop: plan ?? at.loop });
      if (out.failure !== undefined) return out;
      end = out.end;
    }
    return { end, failure: undefined };
  }

  private gap(): number {
    return Math.round(200_000 + this.rng.next() * 4_800_000);
  }

  private latencyNs(l: LatencySpec): number {
    let ms = this.rng.lognormal(l.medianMs, l.sigma);
    if (l.tail !== undefined && this.rng.chance(l.tail.probability)) {
      ms *= l.tail.multiplierMin + this.rng.next() * (l.tail.multiplierMax - l.tail.multiplierMin);
    }
    return Math.max(1_000, Math.round(ms * 1e6));
  }

  private children(step: StepSpec, at: Place): Outcome {
    const nodes = step.children ?? [];
    if (step.parallelChildren !== true) return this.sequence(nodes, at);
    let end = at.t;
    let failure: string | undefined;
    for (const node of nodes) {
      const out = this.node(node, { ...at, t: at.t + this.gap() });
      end = Math.max(end, out.end);
      failure ??= out.failure;
    }
    return { end, failure };
  }

  private usage(d: SpanDraft, llm: LlmSpec, ok: boolean, errorType: string): void {
    d.model = llm.model;
    d.provider = llm.provider;
    if (!ok && errorType === 'RateLimitError') return;
    d.inputTokens = this.rng.int(llm.inputTokens[0], llm.inputTokens[1]);
    d.cachedInputTokens = Math.floor(d.inputTokens * this.rng.next() * llm.cachedShare);
    d.outputTokens = ok ? this.rng.int(llm.outputTokens[0], llm.outputTokens[1]) : 0;
    if (this.rng.chance(this.cost.explicitShare)) {
      const priced = priceTokens(this.cost.prices, d.model, d.inputTokens, d.outputTokens, d.cachedInputTokens);
      d.costUsd = (priced ?? (d.inputTokens + d.outputTokens) * 1e-7) * this.cost.explicitMarkup;
    }
  }

  private step(step: StepSpec, at: Place): Outcome {
    if (step.include !== undefined && !this.rng.chance(step.include)) return { end: at.t, failure: undefined };
    const rotated = step.rotate === undefined ? step.name : step.rotate[at.iteration % step.rotate.length]!;
    const toolOverride = step.kind === 'tool' ? at.loop?.toolAt.get(at.iteration) : undefined;
    const stateOverride = step.kind === 'plan' ? at.loop?.stateAt.get(at.iteration) : undefined;
    const validation = this.opts.loop?.validation?.step === step.name ? this.opts.loop.validation : undefined;
    const name = toolOverride?.name ?? rotated;
    const maxAttempts = validation?.attempts ?? step.maxAttempts;
    const p = ownProbabilities(step);
    const wrapperId = step.kind === 'llm' && this.opts.wrapLlm ? this.ids.nextSpanId() : undefined;
    const wrapperFrom = this.rec.spans.length;
    const group: GroupFact = {
      stepName: name,
      stepKind: step.kind,
      attempts: 0,
      okAttempts: 0,
      firstOk: false,
      anyOk: false,
      retryExtraNs: 0,
      retryExtraCostUsd: 0,
    };
    const start = at.t + (wrapperId === undefined ? 0 : 300_000);
    let cursor = start;
    let lastError = '';
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      const spanId = this.ids.nextSpanId();
      const childFrom = this.rec.spans.length;
      const kids =
        step.children === undefined
          ? { end: cursor, failure: undefined }
          : this.children(step, { ...at, parentId: spanId, t: cursor + 100_000 });
      const end = kids.end + this.latencyNs(step.latency);
      const draw = this.rng.chance(attempt === 1 ? p.firstAttemptSuccess : p.retrySuccess);
      const ok = validation !== undefined ? false : this.opts.forced || (kids.failure === undefined && draw);
      const errorType = ok
        ? ''
        : (kids.failure ?? (validation === undefined ? this.rng.pick(step.errorTypes) : 'ValidationError'));
      const d = emptyDraft(spanId, wrapperId ?? at.parentId, this.spanName(step, name, wrapperId !== undefined));
      d.spanKind = step.kind === 'llm' || step.kind === 'tool' ? 3 : 1;
      d.stepKind = step.kind;
      d.stepName = name;
      d.attempt = this.agent.attemptNumbers ? attempt : 0;
      d.maxAttempts = maxAttempts;
      d.sideEffect = step.sideEffect === true;
      d.operation = OPERATION[step.kind] ?? '';
      d.statusCode = ok ? 1 : 2;
      d.errorType = errorType;
      if (step.kind === 'tool') {
        d.toolName = name;
        d.toolArgsHash = toolOverride?.argsHash ?? this.rng.hex(16);
        if (step.toolCostUsd !== undefined) d.costUsd = step.toolCostUsd;
      }
      if (step.kind === 'plan' || step.kind === 'validate') d.stateHash = stateOverride ?? this.rng.hex(16);
      if (step.kind === 'validate') d.outputHash = validation?.outputHash ?? this.rng.hex(16);
      if (step.llm !== undefined) this.usage(d, step.llm, ok, errorType);
      if (step.aggregatesChildUsage === true) this.rec.aggregateUsage(d, childFrom);
      const index = this.rec.emit(d, cursor, end);
      if (toolOverride?.evidence === true || stateOverride !== undefined || validation !== undefined)
        this.opts.loop?.evidence.push(index);
      group.attempts++;
      if (attempt === 1) group.firstOk = ok;
      else {
        group.retryExtraNs += end - cursor;
        group.retryExtraCostUsd += this.rec.cost[index]!;
      }
      if (step.kind === 'validate' && (this.lastValidate === undefined || cursor >= this.lastValidate.start))
        this.lastValidate = { start: cursor, ok };
      lastError = errorType;
      cursor = end;
      if (ok) {
        group.okAttempts++;
        group.anyOk = true;
        if (step.sideEffect === true) this.sideEffectOk = true;
        break;
      }
      if (attempt < maxAttempts) cursor += Math.round(50e6 * 2 ** (attempt - 1) * (0.5 + this.rng.next()));
    }
    if (wrapperId !== undefined) {
      const w = emptyDraft(wrapperId, at.parentId, 'ai.generateText');
      w.vercelWrapper = true;
      w.statusCode = group.anyOk ? 1 : 2;
      w.errorType = group.anyOk ? '' : lastError;
      this.rec.aggregateUsage(w, wrapperFrom);
      cursor += 300_000;
      this.rec.emit(w, at.t, cursor);
    }
    this.rec.groups.push(group);
    if (group.anyOk) return { end: cursor, failure: undefined };
    this.failedKinds.add(step.kind);
    return { end: cursor, failure: lastError };
  }

  private spanName(step: StepSpec, name: string, wrapped: boolean): string {
    if (wrapped) return 'ai.generateText.doGenerate';
    if (step.spanName !== undefined) return step.spanName;
    if (step.kind === 'llm') return `chat ${step.llm?.model ?? name}`;
    if (step.kind === 'tool') return `execute_tool ${name}`;
    if (step.kind === 'handoff') return `invoke_agent ${name}`;
    return name;
  }
}
