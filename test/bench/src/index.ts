export { loadBenchData } from './loadBenchData.js';
export type { LoadMarker, LoadedBench } from './loadBenchData.js';
export {
  benchOptions,
  parseBenchArgs,
  defaultDataDir,
  DEFAULT_RUNS,
  SMOKE_RUNS,
  DEFAULT_SEED,
} from './BenchOptions.js';
export type { BenchOptions } from './BenchOptions.js';
