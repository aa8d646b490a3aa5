import type { ClickHouseClient } from '@clickhouse/client';
import { upsertModelPrice, deleteModelPrice, listModelPrices } from './modelPrices.js';

/** The arguments of a store function after its client. */
type Args<F> = F extends (client: ClickHouseClient, ...rest: infer R) => unknown ? R : never;

/** A project's model price overrides. */
export class PricesRepository {
  constructor(private readonly client: ClickHouseClient) {}

  upsertModelPrice(...args: Args<typeof upsertModelPrice>): ReturnType<typeof upsertModelPrice> {
    return upsertModelPrice(this.client, ...args);
  }

  deleteModelPrice(...args: Args<typeof deleteModelPrice>): ReturnType<typeof deleteModelPrice> {
    return deleteModelPrice(this.client, ...args);
  }

  listModelPrices(...args: Args<typeof listModelPrices>): ReturnType<typeof listModelPrices> {
    return listModelPrices(this.client, ...args);
  }
}
