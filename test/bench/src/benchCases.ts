import { Analytics } from '@telltale/analytics';
import type { BenchCase } from './BenchCase.js';
import type { BenchContext } from './BenchContext.js';
import { costCases } from './costCases.js';
import { latencyCases } from './latencyCases.js';
import { loopCases } from './loopCases.js';
import { reliabilityCases } from './reliabilityCases.js';
import { runCases } from './runCases.js';

/** Facade methods that are not queries over spans (the price table's CRUD). */
export const NOT_QUERIES: ReadonlySet<string> = new Set(['prices', 'setPrice', 'deletePrice']);

/** The facade's public methods, read from the class itself, so a method added later shows up here. */
export function facadeMethods(): string[] {
  return Object.getOwnPropertyNames(Analytics.prototype)
    .filter(
      (name) =>
        name !== 'constructor' &&
        typeof (Analytics.prototype as unknown as Record<string, unknown>)[name] === 'function',
    )
    .filter((name) => !NOT_QUERIES.has(name))
    .sort();
}

/**
 * Every case: the written ones, then one generic case per facade method none
 * of them covers (called with the overview filter only; a method needing more
 * fails loudly and needs a written case).
 */
export function benchCases(ctx: BenchContext): { cases: BenchCase[]; uncovered: string[] } {
  const written = [
    ...reliabilityCases(ctx),
    ...latencyCases(ctx),
    ...costCases(ctx),
    ...loopCases(ctx),
    ...runCases(ctx),
  ];
  const covered = new Set(written.map((c) => c.method));
  const uncovered = facadeMethods().filter((m) => !covered.has(`Analytics#${m}`));
  const generic = uncovered.map((m): BenchCase => ({
    name: `${m} (generic call)`,
    method: `Analytics#${m}`,
    kind: 'overview',
    targetMs: 500,
    maxRatio: undefined,
    generic: true,
    ours: () => {
      const fn = (ctx.analytics as unknown as Record<string, (f: unknown) => Promise<unknown>>)[m];
      if (fn === undefined) throw new Error(`Analytics#${m} vanished`);
      return fn.call(ctx.analytics, ctx.filter);
    },
  }));
  return { cases: [...written, ...generic], uncovered };
}
