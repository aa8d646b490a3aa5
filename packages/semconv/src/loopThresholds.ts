import { TelltaleError, TelltaleErrorCode } from './errors.js';
import type { LoopKind } from './loopKinds.js';

/**
 * One loop-detection threshold: its default, the values it may take, the
 * kinds it tunes and how SQL binds it. The API's query parameters, the
 * facade's checks, the SQL parameters and the docs table derive from these.
 */
export interface LoopThresholdDefinition {
  readonly default: number;
  /** Smallest allowed value (excluded when `minExclusive`). */
  readonly min: number;
  readonly minExclusive: boolean;
  readonly max: number;
  readonly integer: boolean;
  /** The ClickHouse type of its query parameter. */
  readonly sqlType: 'UInt32' | 'Float64';
  readonly kinds: readonly LoopKind[];
  /**
   * Whether the stored run facts (and the live detector) are detected with
   * its default: a query with another value reads the spans instead. False:
   * applied at query time (runaway limits depend on the window's medians).
   */
  readonly inRunFacts: boolean;
  readonly description: string;
}

export const LOOP_THRESHOLD_DEFINITIONS = {
  repeat: {
    default: 3,
    min: 2,
    minExclusive: false,
    max: 1000,
    integer: true,
    sqlType: 'UInt32',
    kinds: ['repeated_action', 'no_progress'],
    inRunFacts: true,
    description: 'same (tool, args), same state hash or same failed validation this many times is a loop',
  },
  pingPongCycles: {
    default: 3,
    min: 2,
    minExclusive: false,
    max: 1000,
    integer: true,
    sqlType: 'UInt32',
    kinds: ['ping_pong'],
    inRunFacts: true,
    description: 'A→B alternations of at least this many cycles',
  },
  runawayMultiplier: {
    default: 3,
    min: 0,
    minExclusive: true,
    max: 1000,
    integer: false,
    sqlType: 'Float64',
    kinds: ['runaway'],
    inRunFacts: false,
    description: "runaway: more steps than this × the agent's median steps per run",
  },
  runawayHardCap: {
    default: 50,
    min: 1,
    minExclusive: false,
    max: 1_000_000,
    integer: true,
    sqlType: 'UInt32',
    kinds: ['runaway'],
    inRunFacts: false,
    description: '… or more than this many steps',
  },
} as const satisfies Record<string, LoopThresholdDefinition>;

export type LoopThresholdName = keyof typeof LOOP_THRESHOLD_DEFINITIONS;

/** Detection thresholds (queries always receive all of them; defaults: DEFAULT_LOOP_THRESHOLDS). */
export type LoopThresholds = { [K in LoopThresholdName]: number };

export const LOOP_THRESHOLD_NAMES = Object.keys(LOOP_THRESHOLD_DEFINITIONS) as LoopThresholdName[];

/** The one place the thresholds' defaults live (the run facts and the live detector use these). */
export const DEFAULT_LOOP_THRESHOLDS: Readonly<LoopThresholds> = Object.freeze(
  Object.fromEntries(LOOP_THRESHOLD_NAMES.map((name) => [name, LOOP_THRESHOLD_DEFINITIONS[name].default])) as LoopThresholds,
);

/** The allowed values in words: "a whole number from 2 to 1000", "a number > 0 and ≤ 1000". */
export function loopThresholdRange(name: LoopThresholdName): string {
  const d: LoopThresholdDefinition = LOOP_THRESHOLD_DEFINITIONS[name];
  const what = d.integer ? 'a whole number' : 'a number';
  return d.minExclusive ? `${what} > ${d.min} and ≤ ${d.max}` : `${what} from ${d.min} to ${d.max}`;
}

/** Why `value` is no valid `name` threshold, naming it; undefined when it is. */
export function loopThresholdProblem(name: LoopThresholdName, value: number): string | undefined {
  const d: LoopThresholdDefinition = LOOP_THRESHOLD_DEFINITIONS[name];
  const ok =
    Number.isFinite(value) && (!d.integer || Number.isInteger(value)) && (d.minExclusive ? value > d.min : value >= d.min) && value <= d.max;
  return ok ? undefined : `loop threshold ${name} must be ${loopThresholdRange(name)}, got ${value}`;
}

/**
 * The defaults with `overrides` applied (undefined values ignored), checked:
 * a value out of its range is a BAD_REQUEST TelltaleError (HTTP 400) that
 * names the threshold.
 */
export function resolveLoopThresholds(overrides: Partial<Record<LoopThresholdName, number | undefined>> = {}): LoopThresholds {
  const t = { ...DEFAULT_LOOP_THRESHOLDS };
  for (const name of LOOP_THRESHOLD_NAMES) {
    const v = overrides[name];
    if (v === undefined) continue;
    const problem = loopThresholdProblem(name, v);
    if (problem !== undefined) throw new TelltaleError({ code: TelltaleErrorCode.BAD_REQUEST, message: problem });
    t[name] = v;
  }
  return t;
}
