import { z } from 'zod';

/** `/prices`: per-model prices in USD per million tokens. */

export const ModelParams = z.object({
  model: z.string().min(1).max(256).describe('model name as spans carry it (URL-encode a `/`)'),
});

const PerMTok = (what: string) => z.number().finite().min(0).max(1_000_000).describe(`USD per million ${what}`);
export const priceInputSchema = z
  .object({
    inputPerMTok: PerMTok('input tokens'),
    cachedInputPerMTok: PerMTok('cached input tokens'),
    outputPerMTok: PerMTok('output tokens'),
    asOf: z.string().max(64).optional().describe('when the price was read (default: today, YYYY-MM-DD)'),
    source: z.string().max(256).default('api').describe('where the price comes from'),
  })
  .strict();
export type PriceInput = z.input<typeof priceInputSchema>;

const modelPriceShape = {
  model: z.string(),
  inputPerMTok: z.number(),
  cachedInputPerMTok: z.number(),
  outputPerMTok: z.number(),
  asOf: z.string(),
  source: z.string(),
};
export const modelPriceSchema = z.object(modelPriceShape);
export type ModelPrice = z.infer<typeof modelPriceSchema>;

/** A price in effect: bundled with Telltale, or the project's override (with the bundled one it replaces, if any). */
export const effectivePriceSchema = z.object({
  ...modelPriceShape,
  origin: z.enum(['bundled', 'override']),
  updatedAtMs: z.number().optional(),
  bundled: modelPriceSchema.optional(),
});
export type EffectivePrice = z.infer<typeof effectivePriceSchema>;

export const pricesResponseSchema = z.object({ prices: z.array(effectivePriceSchema) });
export const priceResponseSchema = z.object({ price: effectivePriceSchema.nullable() });
export const priceDeletedResponseSchema = z.object({ deleted: z.string(), price: effectivePriceSchema.nullable() });
