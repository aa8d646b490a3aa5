import type { PriceTable, StoreRows } from '@telltale/store';
import { BUNDLED_PRICES, type ModelPrice } from './bundledPrices.js';
import { resolvePriceTable } from './priceTable.js';

/** A model's price as a project sees it. */
export interface EffectivePrice extends ModelPrice {
  origin: 'bundled' | 'override';
  /** For an override: when it was written (ms since the epoch). */
  updatedAtMs?: number;
  /** For an override of a bundled model: the bundled price it replaces. */
  bundled?: ModelPrice;
}

export interface PriceResolverOptions {
  /** Cached tables expire after this long, so writes by other processes show up (default 60 s). */
  ttlMs?: number;
  bundled?: readonly ModelPrice[];
  now?: () => number;
}

interface Entry {
  overrides: Promise<readonly StoreRows.StoredModelPrice[]>;
  table: Promise<PriceTable>;
  loadedAt: number;
}

/**
 * Bundled prices merged with each project's overrides, cached per project.
 * Writes through this process call `invalidate`; other processes' writes
 * show up within the TTL. An entry is cached as a promise at once, so
 * concurrent readers share one load and an invalidation during a load drops it.
 */
export class PriceResolver {
  private readonly cache = new Map<string, Entry>();
  private readonly ttlMs: number;
  private readonly bundled: readonly ModelPrice[];
  private readonly now: () => number;

  constructor(
    private readonly loadOverrides: (projectId: string) => Promise<readonly StoreRows.StoredModelPrice[]>,
    opts: PriceResolverOptions = {},
  ) {
    this.ttlMs = opts.ttlMs ?? 60_000;
    this.bundled = opts.bundled ?? BUNDLED_PRICES;
    this.now = opts.now ?? Date.now;
  }

  /** The per-token table the queries bind for this project. */
  table(projectId: string): Promise<PriceTable> {
    return this.entry(projectId).table;
  }

  /** Every model the project can price, by name, with where its price comes from. */
  async list(projectId: string): Promise<EffectivePrice[]> {
    const overrides = await this.entry(projectId).overrides;
    const byModel = new Map<string, EffectivePrice>(this.bundled.map((p) => [p.model, { ...p, origin: 'bundled' }]));
    for (const { updatedAtMs, ...o } of overrides) {
      const bundled = this.bundled.find((p) => p.model === o.model);
      byModel.set(o.model, { ...o, origin: 'override', updatedAtMs, ...(bundled === undefined ? {} : { bundled }) });
    }
    return [...byModel.values()].sort((a, b) => a.model.localeCompare(b.model));
  }

  invalidate(projectId: string): void {
    this.cache.delete(projectId);
  }

  private entry(projectId: string): Entry {
    const cached = this.cache.get(projectId);
    if (cached !== undefined && this.now() - cached.loadedAt < this.ttlMs) return cached;
    const overrides = this.loadOverrides(projectId);
    const entry: Entry = {
      overrides,
      table: overrides.then((o) => resolvePriceTable(o, this.bundled)),
      loadedAt: this.now(),
    };
    this.cache.set(projectId, entry);
    // a failed load is not cached: the next call tries again
    overrides.catch(() => {
      if (this.cache.get(projectId) === entry) this.cache.delete(projectId);
    });
    return entry;
  }
}
