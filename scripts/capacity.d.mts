export declare const CAPACITY_START: string;
export declare const CAPACITY_END: string;
export declare function renderCapacity(ingestJson: unknown, readme: string): string;
export declare function withCapacityBlock(doc: string, block: string): string;
export declare function capacityFromRepo(dir?: string): string;
export declare function analyticsFigures(readme: string): {
  spanBytes: number;
  factsBytes: number;
  windowSpans: number;
  queryCpuMs: number;
  queries: number;
  measuredAt: string;
};
