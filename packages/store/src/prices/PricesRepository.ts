import type { ClickHouseClient } from '@clickhouse/client';
import type { QueryRunner } from '../QueryRunner.js';
import { upsertModelPrice, deleteModelPrice, listModelPrices } from './modelPrices.js';

/** The arguments of a store function after its first. */
type Args<F> = F extends (client: ClickHouseClient, ...rest: infer R) => unknown ? R : never;

/** A project's model price overrides. */
export class PricesRepository {
  constructor(private readonly runner: QueryRunner) {}

  upsertModelPrice(...args: Args<typeof upsertModelPrice>): ReturnType<typeof upsertModelPrice> {
    return this.runner.run('prices.upsertModelPrice', (client) => upsertModelPrice(client, ...args));
  }

  deleteModelPrice(...args: Args<typeof deleteModelPrice>): ReturnType<typeof deleteModelPrice> {
    return this.runner.run('prices.deleteModelPrice', (client) => deleteModelPrice(client, ...args));
  }

  listModelPrices(...args: Args<typeof listModelPrices>): ReturnType<typeof listModelPrices> {
    return this.runner.run('prices.listModelPrices', (client) => listModelPrices(client, ...args));
  }
}
