import { DEFAULT_LOOP_THRESHOLDS, type LiveLoopKind } from '@telltale/semconv';
import { loopStepAt, loopStepCount, type LoopSignals, type LoopStep } from './loopSignals.js';

/** The live detections: the kinds marked `live` in semconv's LOOP_KIND_DEFINITIONS (runaway needs the agent's median and stays with the stored facts). */
export type { LiveLoopKind };

export interface LiveLoopEvent {
  projectId: string;
  runId: string;
  /** `firing` once, when a run starts to loop; `resolved` once, when that run ends (or is forgotten). */
  status: 'firing' | 'resolved';
  kind: LiveLoopKind;
  /** Repeats, or ping-pong cycles, when it fired. */
  count: number;
  atMs: number;
  labels: Record<string, string>;
}

export interface LiveLoopDetectorOptions {
  onEvent: (event: LiveLoopEvent) => void;
  /** Same action, state or failed validation this many times (default: DEFAULT_LOOP_THRESHOLDS). */
  repeat?: number;
  /** A→B→A→B… of this many cycles (default: DEFAULT_LOOP_THRESHOLDS). */
  pingPongCycles?: number;
  /** Runs followed at once; past it the least recently active is forgotten (default 50,000). */
  maxRuns?: number;
  /** Steps kept per run for the ordered checks (default 512); counts go on past it. */
  maxStepsPerRun?: number;
  /** A run without spans for this long is taken as over (default 10 min). */
  idleMs?: number;
  now?: () => number;
}

interface Detection {
  kind: LiveLoopKind;
  count: number;
  labels: Record<string, string>;
}

/** One run being followed: its loop-relevant steps in start order and the repeat counts. */
class RunState {
  readonly steps: LoopStep[] = [];
  /** Per tool and arguments key (`tool \0 key`). */
  readonly actions = new Map<string, number>();
  /** Per state key. */
  readonly states = new Map<number, number>();
  fired: Detection | undefined;
  lastSeenMs = 0;

  constructor(readonly service: string) {}

  /** Inserts in (start, span id) order; a span seen before is ignored. Returns false for a repeat. */
  insert(step: LoopStep, maxSteps: number): boolean {
    const steps = this.steps;
    let i = steps.length;
    while (i > 0 && before(step, steps[i - 1]!)) i--;
    const prev = steps[i - 1];
    if (prev !== undefined && !before(prev, step)) return false; // the same start and span id: seen before
    if (steps.length < maxSteps) steps.splice(i, 0, step);
    return true;
  }
}

/** Whether `a` comes before `b`: by start, then by span id (as the stored detection orders them). */
function before(a: LoopStep, b: LoopStep): boolean {
  if (a.startHi !== b.startHi) return a.startHi < b.startHi;
  if (a.startLo !== b.startLo) return a.startLo < b.startLo;
  if (a.spanHi !== b.spanHi) return a.spanHi < b.spanHi;
  return a.spanLo < b.spanLo;
}

function bump<K>(counts: Map<K, number>, key: K, maxKeys: number): number {
  const n = (counts.get(key) ?? 0) + 1;
  if (n > 1 || counts.size < maxKeys) counts.set(key, n);
  return n;
}

/**
 * Loop detection while runs are still going: fed with the loop signals of
 * every acknowledged export, it follows each run (bounded: at most `maxRuns`
 * runs, `maxStepsPerRun` ordered steps each) and reports a run the first time
 * it loops — the same tool with the same arguments, the same state hash on
 * plan / validate steps, or the same failed validation output `repeat` times
 * in a row, or tools alternating A→B→A→B for `pingPongCycles` cycles — and
 * once more when that run ends. The same rules as the stored detection
 * (packages/store loopSql), applied to what has arrived so far.
 */
export class LiveLoopDetector {
  private readonly runs = new Map<string, RunState>();
  private readonly repeat: number;
  private readonly cycles: number;
  private readonly maxRuns: number;
  private readonly maxSteps: number;
  private readonly idleMs: number;
  private readonly now: () => number;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly opts: LiveLoopDetectorOptions) {
    this.repeat = opts.repeat ?? DEFAULT_LOOP_THRESHOLDS.repeat;
    this.cycles = opts.pingPongCycles ?? DEFAULT_LOOP_THRESHOLDS.pingPongCycles;
    this.maxRuns = opts.maxRuns ?? 50_000;
    this.maxSteps = opts.maxStepsPerRun ?? 512;
    this.idleMs = opts.idleMs ?? 600_000;
    this.now = opts.now ?? Date.now;
  }

  /** Runs followed now. */
  get size(): number {
    return this.runs.size;
  }

  observe(signals: LoopSignals): void {
    const now = this.now();
    const key = (runId: string): string => `${signals.projectId}\u0000${runId}`;
    /** The runs this request has steps of (by run id), and those it added steps to. */
    const seen = new Map<string, RunState>();
    const grown = new Set<RunState>();
    for (let i = 0, n = loopStepCount(signals); i < n; i++) {
      const step = loopStepAt(signals, i);
      let run = seen.get(step.runId);
      if (run === undefined) {
        run = this.runs.get(key(step.runId)) ?? new RunState(signals.services[step.runId] ?? '');
        seen.set(step.runId, run);
      }
      if (!run.insert(step, this.maxSteps)) continue;
      if (step.kind === 1 && step.argsKey !== 0) bump(run.actions, `${step.tool}\u0000${step.argsKey}`, this.maxSteps);
      if (step.kind !== 1 && step.stateKey !== 0) bump(run.states, step.stateKey, this.maxSteps);
      grown.add(run);
    }
    for (const [runId, run] of seen) {
      const k = key(runId);
      this.runs.delete(k); // re-inserted: the map's order is the recency order
      this.runs.set(k, run);
      run.lastSeenMs = now;
      if (!grown.has(run) || run.fired !== undefined) continue;
      const found = this.detect(run);
      if (found === undefined) continue;
      run.fired = found;
      this.emit(signals.projectId, k, run, 'firing', now);
    }
    for (const runId of signals.endedRuns) this.forget(key(runId), now);
    while (this.runs.size > this.maxRuns) this.forget(this.runs.keys().next().value!, now);
  }

  /** Forgets runs idle for `idleMs` (a run that fired gets its `resolved`). */
  sweep(): void {
    const now = this.now();
    for (const [k, run] of this.runs) {
      if (now - run.lastSeenMs < this.idleMs) break; // recency order: the rest are newer
      this.forget(k, now);
    }
  }

  /** Sweeps every `intervalMs` until `stop`. */
  start(intervalMs = 10_000): void {
    this.timer ??= setInterval(() => this.sweep(), intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }

  private forget(k: string, now: number): void {
    const run = this.runs.get(k);
    if (run === undefined) return;
    this.runs.delete(k);
    if (run.fired !== undefined) this.emit(k.slice(0, k.indexOf('\u0000')), k, run, 'resolved', now);
  }

  private emit(projectId: string, k: string, run: RunState, status: LiveLoopEvent['status'], atMs: number): void {
    const fired = run.fired!;
    const runId = k.slice(k.indexOf('\u0000') + 1);
    const labels = {
      runId,
      loopKind: fired.kind,
      ...(run.service === '' ? {} : { service: run.service }),
      ...fired.labels,
    };
    this.opts.onEvent({ projectId, runId, status, kind: fired.kind, count: fired.count, atMs, labels });
  }

  private detect(run: RunState): Detection | undefined {
    for (const [action, n] of run.actions) {
      if (n >= this.repeat)
        return { kind: 'repeated_action', count: n, labels: { tool: action.slice(0, action.indexOf('\u0000')) } };
    }
    for (const n of run.states.values()) if (n >= this.repeat) return { kind: 'no_progress', count: n, labels: {} };
    const streak = failedValidationStreak(run.steps);
    if (streak >= this.repeat) return { kind: 'no_progress', count: streak, labels: {} };
    const pingPong = longestAlternation(run.steps);
    if (pingPong.cycles >= this.cycles)
      return { kind: 'ping_pong', count: pingPong.cycles, labels: { tool: pingPong.tools } };
    return undefined;
  }
}

/** The longest run of consecutive validations (among validations, in start order) failing with one output hash. */
function failedValidationStreak(steps: readonly LoopStep[]): number {
  let best = 0;
  let streak = 0;
  let output = 0;
  for (const s of steps) {
    if (s.kind !== 3) continue;
    if (s.failed && s.outputKey !== 0) {
      streak = s.outputKey === output ? streak + 1 : 1;
      output = s.outputKey;
    } else {
      streak = 0;
      output = 0;
    }
    best = Math.max(best, streak);
  }
  return best;
}

/** The longest A→B→A→B… stretch of tool calls (in start order): cycles = ⌊length / 2⌋, as the stored detection counts them. */
function longestAlternation(steps: readonly LoopStep[]): { cycles: number; tools: string } {
  const tools = steps.filter((s) => s.kind === 1).map((s) => s.tool);
  let best = { length: 0, at: 0 };
  let length = 2;
  for (let i = 2; i < tools.length; i++) {
    length = tools[i] === tools[i - 2] && tools[i] !== tools[i - 1] ? length + 1 : 2;
    if (length > best.length) best = { length, at: i };
  }
  if (best.length < 4) return { cycles: 0, tools: '' };
  return { cycles: Math.floor(best.length / 2), tools: `${tools[best.at - 1]}↔${tools[best.at]}` };
}
