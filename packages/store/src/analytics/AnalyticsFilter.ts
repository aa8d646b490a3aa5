/**
 * The filters every analytics query takes. Run-level filters (service, agent)
 * select runs by their root; span-level filters (step, tool, model,
 * attributes) select the steps a step-level metric looks at, and for
 * run-level metrics the runs that contain at least one matching span.
 */
export interface AnalyticsFilter {
  projectId: string;
  /** Inclusive lower bound on span start, ns since the epoch. */
  fromUnixNano: bigint;
  /** Exclusive upper bound on span start. */
  toUnixNano: bigint;
  service?: string;
  /** The run root's name (within its service). */
  agent?: string;
  /**
   * Runs of one session / conversation (the run's `session_id`, migration
   * 0007). Honoured by the run-level CTEs (RUNS_CTE, FACT_RUNS_CTE): the runs
   * list and sessions; the analytics routes do not take it.
   */
  session?: string;
  stepName?: string;
  tool?: string;
  model?: string;
  /** Exact matches on raw span attributes (`attributes[key] = value`). */
  attributes?: Readonly<Record<string, string>>;
  /** Only these runs (e.g. one run's detail, or a page of the runs list); empty or absent = all. */
  runIds?: readonly string[];
  /**
   * Recompute run-level numbers from the spans instead of reading the run
   * facts (verification and tests; slower). Filters on steps, tools, models
   * or attributes always read the spans.
   */
  recompute?: boolean;
}

/** Per-token USD prices by model, resolved for one project (bundled table + overrides). */
export interface PriceTable {
  models: readonly string[];
  input: readonly number[];
  output: readonly number[];
  cachedInput: readonly number[];
}

export const EMPTY_PRICE_TABLE: PriceTable = { models: [], input: [], output: [], cachedInput: [] };
