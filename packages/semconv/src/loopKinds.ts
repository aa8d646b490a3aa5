/**
 * The loop kinds (RELIABILITY-MATH "Loops and no progress"), defined once:
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
    variants: [{ variant: 'tool_args', code: 1, rule: '≥ `repeat` tool calls with the same tool and the same non-empty args hash' }],
  },
  {
    kind: 'no_progress',
    label: 'No progress',
    shortLabel: 'no progress',
    count: 'repeats',
    live: true,
    variants: [
      { variant: 'state_hash', code: 2, rule: '≥ `repeat` plan / validate steps with the same non-empty state hash' },
      { variant: 'failed_validation', code: 3, rule: '≥ `repeat` consecutive validations failing with the same non-empty output hash' },
    ],
  },
  {
    kind: 'ping_pong',
    label: 'Ping-pong',
    shortLabel: 'ping-pong',
    count: 'cycles',
    live: true,
    variants: [{ variant: 'alternation', code: 4, rule: 'tool calls alternating A→B→A→B… for ≥ `pingPongCycles` cycles' }],
  },
  {
    kind: 'runaway',
    label: 'Runaway',
    shortLabel: 'runaway',
    count: 'steps in the run',
    live: false,
    variants: [{ variant: 'step_count', code: 5, rule: "more steps than max(`runawayMultiplier` × the agent's median steps per run, `runawayHardCap`)" }],
  },
] as const satisfies readonly LoopKindDefinition[];

type Definitions = typeof LOOP_KIND_DEFINITIONS;
type AnyDefinition = Definitions[number];

export type LoopKind = AnyDefinition['kind'];
export type LoopVariant = AnyDefinition['variants'][number]['variant'];
/** The kinds the collector's live detector reports. */
export type LiveLoopKind = Extract<AnyDefinition, { live: true }>['kind'];

/** The kinds in definition order (a tuple, so `z.enum(LOOP_KINDS)` works). */
type KindsOf<T extends readonly LoopKindDefinition[]> = { readonly [I in keyof T]: T[I] extends { kind: infer K } ? K : never };
export const LOOP_KINDS = LOOP_KIND_DEFINITIONS.map((d) => d.kind) as unknown as KindsOf<Definitions>;

/** The variants in code order. */
export const LOOP_VARIANTS: readonly LoopVariant[] = LOOP_KIND_DEFINITIONS.flatMap((d) => d.variants as readonly LoopVariantDefinition[])
  .sort((a, b) => a.code - b.code)
  .map((v) => v.variant as LoopVariant);

/** The kind each variant reports under. */
export const LOOP_KIND_OF_VARIANT = Object.fromEntries(LOOP_KIND_DEFINITIONS.flatMap((d) => d.variants.map((v) => [v.variant, d.kind]))) as Readonly<
  Record<LoopVariant, LoopKind>
>;

/** The SQL / run-facts code of each variant. */
export const LOOP_VARIANT_CODE = Object.fromEntries(LOOP_KIND_DEFINITIONS.flatMap((d) => d.variants.map((v) => [v.variant, v.code]))) as Readonly<
  Record<LoopVariant, number>
>;

/** The kinds the live detector reports. */
export const LIVE_LOOP_KINDS: readonly LiveLoopKind[] = LOOP_KIND_DEFINITIONS.filter((d) => d.live).map((d) => d.kind as LiveLoopKind);

/** Sentence-case label of each kind ("Ping-pong"). */
export const LOOP_KIND_LABELS = Object.fromEntries(LOOP_KIND_DEFINITIONS.map((d) => [d.kind, d.label])) as Readonly<Record<LoopKind, string>>;

/** Short label of each kind (the runs table: "repeat", "ping-pong"). */
export const LOOP_KIND_SHORT_LABELS = Object.fromEntries(LOOP_KIND_DEFINITIONS.map((d) => [d.kind, d.shortLabel])) as Readonly<Record<LoopKind, string>>;

export function isLoopKind(value: unknown): value is LoopKind {
  return typeof value === 'string' && (LOOP_KINDS as readonly string[]).includes(value);
}
