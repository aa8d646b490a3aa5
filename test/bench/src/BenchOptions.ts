import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** What one bench run does. */
export interface BenchOptions {
  /** Runs of the bench preset to load (100k ≈ 10M spans). */
  runs: number;
  seed: number;
  /** Timed repetitions per query after one warm-up. */
  iterations: number;
  /** The chDB data directory; a loaded one (marker file present, same seed and runs) is reused. */
  dataDir: string;
  /** Drop a cached data directory and load again. */
  fresh: boolean;
  /** Runs of the dataset per insert (≈ 100 spans each; ≥ 100 keeps inserts ≥ 10k rows). */
  runsPerInsert: number;
  /** Wait (polling) while the 1-minute load average is above this, up to `quietWaitMs`. */
  maxLoadAverage: number;
  quietWaitMs: number;
  /** Write the results into this README (between its result markers); undefined: print only. */
  readmePath: string | undefined;
}

export const DEFAULT_RUNS = 100_000;
export const SMOKE_RUNS = 2_000;
export const DEFAULT_SEED = 7_777;

export function defaultDataDir(runs: number, seed: number): string {
  return join(tmpdir(), `telltale-bench-${runs}r-s${seed}`);
}

export function benchOptions(partial: Partial<BenchOptions> = {}): BenchOptions {
  const runs = partial.runs ?? DEFAULT_RUNS;
  const seed = partial.seed ?? DEFAULT_SEED;
  return {
    runs,
    seed,
    iterations: partial.iterations ?? 7,
    dataDir: partial.dataDir ?? defaultDataDir(runs, seed),
    fresh: partial.fresh ?? false,
    runsPerInsert: partial.runsPerInsert ?? 500,
    maxLoadAverage: partial.maxLoadAverage ?? 1.5,
    quietWaitMs: partial.quietWaitMs ?? 10 * 60_000,
    readmePath: partial.readmePath,
  };
}

const USAGE = `usage: node test/bench/dist/analyticsBench.js [options]
  --runs N            runs of the bench preset (default ${DEFAULT_RUNS} ≈ 10M spans; --smoke = ${SMOKE_RUNS})
  --smoke             ${SMOKE_RUNS} runs, 3 iterations, no waiting for a quiet machine
  --seed N            dataset seed (default ${DEFAULT_SEED})
  --iterations N      timed repetitions after one warm-up (default 7)
  --data-dir PATH     chDB data directory (default $TMPDIR/telltale-bench-<runs>r-s<seed>; reused once loaded)
  --fresh             load again even if the data directory holds this dataset
  --max-load X        wait while the 1-min load average exceeds X (default 1.5, up to 10 min)
  --readme PATH       write the results into PATH (full runs default to bench/README.md)
  --no-readme         print only`;

/** Parses CLI arguments; throws a RangeError with the usage on a bad one. */
export function parseBenchArgs(argv: readonly string[], repoRoot: string): BenchOptions {
  const partial: Partial<BenchOptions> = {};
  let smoke = false;
  let readme: string | null | undefined;
  const num = (i: number, name: string): number => {
    const v = Number(argv[i + 1]);
    if (!Number.isFinite(v) || v < 0) throw new RangeError(`${name} needs a number ≥ 0\n${USAGE}`);
    return v;
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    switch (arg) {
      case '--runs':
        partial.runs = num(i++, arg);
        break;
      case '--smoke':
        smoke = true;
        break;
      case '--seed':
        partial.seed = num(i++, arg);
        break;
      case '--iterations':
        partial.iterations = Math.max(1, num(i++, arg));
        break;
      case '--data-dir':
        partial.dataDir = argv[++i];
        break;
      case '--fresh':
        partial.fresh = true;
        break;
      case '--max-load':
        partial.maxLoadAverage = num(i++, arg);
        break;
      case '--readme':
        readme = argv[++i];
        break;
      case '--no-readme':
        readme = null;
        break;
      case '--help':
        throw new RangeError(USAGE);
      default:
        throw new RangeError(`unknown argument ${arg}\n${USAGE}`);
    }
  }
  if (smoke) {
    partial.runs ??= SMOKE_RUNS;
    partial.iterations ??= 3;
    partial.quietWaitMs = 0;
  }
  const full = (partial.runs ?? DEFAULT_RUNS) === DEFAULT_RUNS;
  partial.readmePath =
    readme === null ? undefined : (readme ?? (full ? join(repoRoot, 'bench', 'README.md') : undefined));
  return benchOptions(partial);
}
