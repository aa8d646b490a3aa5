import { TelltaleError, TelltaleErrorCode } from './errors.js';

/**
 * The loop kinds (RELIABILITY-MATH "Loops and no progress") and their
 * thresholds, defined once:
 * every detector (the span SQL, the run-facts SQL, the TS detector, the
 * collector's live detector), the API, the CLI, the dashboard and the docs
 * table in docs/metrics.md derive their kind lists and labels from here.
 *
 * A kind reports under one or more variants (the rule that fired). A
 * variant's `code` is how the SQL and the stored run facts (`loop_dets`)
 * name it: codes are 1, 2, 3, … with no gaps, and a stored code never
 * changes meaning — give a new variant the next free code.
 */
export interface LoopVariantDefinition {
  readonly variant: string;
  readonly code: number;
  /** The rule, one sentence (the docs table). */
  readonly rule: string;
}

export interface LoopKindDefinition {
  readonly kind: string;
  /** Sentence-case label (dashboard headings; the CLI lower-cases it). */
  readonly label: string;
  /** The few words of the runs table's loop column. */
  readonly shortLabel: string;
  /** What a detection's `count` counts. */
  readonly count: string;
  /** Whether the collector reports it while the run is still going (runaway needs the window's medians: stored facts only). */
  readonly live: boolean;
  readonly variants: readonly LoopVariantDefinition[];
}

export const LOOP_KIND_DEFINITIONS = [
  {
    kind: 'repeated_action',
    label: 'Repeated action',
    shortLabel: 'repeat',
    count: 'calls',
    live: true,
    variants: [
      {
        variant: 'tool_args',
        code: 1,
        rule: '≥ `repeat` tool calls with the same tool and the same non-empty args hash',
      },
    ],
  },
  {
    kind: 'no_progress',
    label: 'No progress',
    shortLabel: 'no progress',
    count: 'repeats',
    live: true,
    variants: [
      { variant: 'state_hash', code: 2, rule: '≥ `repeat` plan / validate steps with the same non-empty state hash' },
      {
        variant: 'failed_validation',
        code: 3,
        rule: '≥ `repeat` consecutive validations failing with the same non-empty output hash',
      },
    ],
  },
  {
    kind: 'ping_pong',
    label: 'Ping-pong',
    shortLabel: 'ping-pong',
    count: 'cycles',
    live: true,
    variants: [
      { variant: 'alternation', code: 4, rule: 'tool calls alternating A→B→A→B… for ≥ `pingPongCycles` cycles' },
    ],
  },
  {
    kind: 'runaway',
    label: 'Runaway',
    shortLabel: 'runaway',
    count: 'steps in the run',
    live: false,
    variants: [
      {
        variant: 'step_count',
        code: 5,
        rule: "more steps than max(`runawayMultiplier` × the agent's median steps per run, `runawayHardCap`)",
      },
    ],
  },
] as const satisfies readonly LoopKindDefinition[];

type Definitions = typeof LOOP_KIND_DEFINITIONS;
type AnyDefinition = Definitions[number];

export type LoopKind = AnyDefinition['kind'];
export type LoopVariant = AnyDefinition['variants'][number]['variant'];
/** The kinds the collector's live detector reports. */
export type LiveLoopKind = Extract<AnyDefinition, { live: true }>['kind'];

/** The kinds in definition order (a tuple, so `z.enum(LOOP_KINDS)` works). */
type KindsOf<T extends readonly LoopKindDefinition[]> = {
  readonly [I in keyof T]: T[I] extends { kind: infer K } ? K : never;
};
export const LOOP_KINDS = LOOP_KIND_DEFINITIONS.map((d) => d.kind) as unknown as KindsOf<Definitions>;

/** The variants in code order. */
export const LOOP_VARIANTS: readonly LoopVariant[] = LOOP_KIND_DEFINITIONS.flatMap(
  (d) => d.variants as readonly LoopVariantDefinition[],
)
  .sort((a, b) => a.code - b.code)
  .map((v) => v.variant as LoopVariant);

/** The kind each variant reports under. */
export const LOOP_KIND_OF_VARIANT = Object.fromEntries(
  LOOP_KIND_DEFINITIONS.flatMap((d) => d.variants.map((v) => [v.variant, d.kind])),
) as Readonly<Record<LoopVariant, LoopKind>>;

/** The SQL / run-facts code of each variant. */
export const LOOP_VARIANT_CODE = Object.fromEntries(
  LOOP_KIND_DEFINITIONS.flatMap((d) => d.variants.map((v) => [v.variant, v.code])),
) as Readonly<Record<LoopVariant, number>>;

/** The kinds the live detector reports. */
export const LIVE_LOOP_KINDS: readonly LiveLoopKind[] = LOOP_KIND_DEFINITIONS.filter((d) => d.live).map((d) => d.kind);

/** Sentence-case label of each kind ("Ping-pong"). */
export const LOOP_KIND_LABELS = Object.fromEntries(LOOP_KIND_DEFINITIONS.map((d) => [d.kind, d.label])) as Readonly<
  Record<LoopKind, string>
>;

/** Short label of each kind (the runs table: "repeat", "ping-pong"). */
export const LOOP_KIND_SHORT_LABELS = Object.fromEntries(
  LOOP_KIND_DEFINITIONS.map((d) => [d.kind, d.shortLabel]),
) as Readonly<Record<LoopKind, string>>;

export function isLoopKind(value: unknown): value is LoopKind {
  return typeof value === 'string' && (LOOP_KINDS as readonly string[]).includes(value);
}

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
    description: 'runaway: the step limit is never below this (it is the limit alone when the agent has no median)',
  },
} as const satisfies Record<string, LoopThresholdDefinition>;

export type LoopThresholdName = keyof typeof LOOP_THRESHOLD_DEFINITIONS;

/** Detection thresholds (queries always receive all of them; defaults: DEFAULT_LOOP_THRESHOLDS). */
export type LoopThresholds = { [K in LoopThresholdName]: number };

export const LOOP_THRESHOLD_NAMES = Object.keys(LOOP_THRESHOLD_DEFINITIONS) as LoopThresholdName[];

/** The one place the thresholds' defaults live (the run facts and the live detector use these). */
export const DEFAULT_LOOP_THRESHOLDS: Readonly<LoopThresholds> = Object.freeze(
  Object.fromEntries(
    LOOP_THRESHOLD_NAMES.map((name) => [name, LOOP_THRESHOLD_DEFINITIONS[name].default]),
  ) as LoopThresholds,
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
    Number.isFinite(value) &&
    (!d.integer || Number.isInteger(value)) &&
    (d.minExclusive ? value > d.min : value >= d.min) &&
    value <= d.max;
  return ok ? undefined : `loop threshold ${name} must be ${loopThresholdRange(name)}, got ${value}`;
}

/**
 * The defaults with `overrides` applied (undefined values ignored), checked:
 * a value out of its range is a BAD_REQUEST TelltaleError (HTTP 400) that
 * names the threshold.
 */
export function resolveLoopThresholds(
  overrides: Partial<Record<LoopThresholdName, number | undefined>> = {},
): LoopThresholds {
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
