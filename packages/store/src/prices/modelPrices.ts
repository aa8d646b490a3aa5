import type { ClickHouseClient } from '@clickhouse/client';
import { TelltaleError, TelltaleErrorCode } from '@telltale/semconv';

/** A project's price for one model, in USD per million tokens. */
export interface ModelPriceOverride {
  model: string;
  inputPerMTok: number;
  cachedInputPerMTok: number;
  outputPerMTok: number;
  /** When the price was read (free text, e.g. an ISO date). */
  asOf: string;
  /** Where it came from (e.g. "negotiated contract"). */
  source: string;
}

/** An override as stored, with the time it was written (ms since the epoch). */
export interface StoredModelPrice extends ModelPriceOverride {
  updatedAtMs: number;
}

interface PriceRow {
  model: string;
  input_per_mtok: number;
  cached_input_per_mtok: number;
  output_per_mtok: number;
  as_of: string;
  source: string;
  updated_us: string | number;
}

/**
 * Version stamps in microseconds, strictly increasing within the process, so
 * two writes of one model in the same millisecond still order correctly.
 */
let lastStampUs = 0;
function nextStampUs(): number {
  lastStampUs = Math.max(Date.now() * 1000, lastStampUs + 1);
  return lastStampUs;
}

function usToDateTime64(us: number): string {
  return `${Math.floor(us / 1_000_000)}.${(us % 1_000_000).toString().padStart(6, '0')}`;
}

function checkPrice(p: ModelPriceOverride): void {
  if (p.model.length === 0 || p.model.length > 256)
    throw new TelltaleError({ code: TelltaleErrorCode.BAD_REQUEST, message: 'a model name is 1–256 characters' });
  for (const [k, v] of [
    ['inputPerMTok', p.inputPerMTok],
    ['cachedInputPerMTok', p.cachedInputPerMTok],
    ['outputPerMTok', p.outputPerMTok],
  ] as const) {
    if (!Number.isFinite(v) || v < 0)
      throw new TelltaleError({
        code: TelltaleErrorCode.BAD_REQUEST,
        message: `${k} must be a finite number ≥ 0, got ${v}`,
      });
  }
}

/** Writes (or replaces) the project's price of one model. */
export async function upsertModelPrice(
  client: ClickHouseClient,
  projectId: string,
  price: ModelPriceOverride,
): Promise<void> {
  checkPrice(price);
  await client.insert({
    table: 'model_prices',
    format: 'JSONEachRow',
    values: [
      {
        project_id: projectId,
        model: price.model,
        input_per_mtok: price.inputPerMTok,
        cached_input_per_mtok: price.cachedInputPerMTok,
        output_per_mtok: price.outputPerMTok,
        as_of: price.asOf,
        source: price.source,
        updated_at: usToDateTime64(nextStampUs()),
        is_deleted: 0,
      },
    ],
  });
}

/** Removes the project's override of one model (the bundled price, if any, applies again). */
export async function deleteModelPrice(client: ClickHouseClient, projectId: string, model: string): Promise<void> {
  await client.insert({
    table: 'model_prices',
    format: 'JSONEachRow',
    values: [
      {
        project_id: projectId,
        model,
        input_per_mtok: 0,
        cached_input_per_mtok: 0,
        output_per_mtok: 0,
        as_of: '',
        source: '',
        updated_at: usToDateTime64(nextStampUs()),
        is_deleted: 1,
      },
    ],
  });
}

/** The project's current overrides, by model name. */
export async function listModelPrices(client: ClickHouseClient, projectId: string): Promise<StoredModelPrice[]> {
  const result = await client.query({
    query: `SELECT model, input_per_mtok, cached_input_per_mtok, output_per_mtok, as_of, source,
                toString(toUnixTimestamp64Micro(updated_at)) AS updated_us
            FROM model_prices FINAL
            WHERE project_id = {projectId:String} AND is_deleted = 0
            ORDER BY model`,
    format: 'JSONEachRow',
    query_params: { projectId },
  });
  const rows = await result.json<PriceRow>();
  return rows.map((r) => ({
    model: r.model,
    inputPerMTok: Number(r.input_per_mtok),
    cachedInputPerMTok: Number(r.cached_input_per_mtok),
    outputPerMTok: Number(r.output_per_mtok),
    asOf: r.as_of,
    source: r.source,
    updatedAtMs: Math.floor(Number(r.updated_us) / 1000),
  }));
}
