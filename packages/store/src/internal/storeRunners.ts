import type { ClickHouseClient } from '@clickhouse/client';
import type { QueryRunner } from '../QueryRunner.js';

/**
 * Each open Store's query runner, for the package's own modules (the
 * testing entry's StoreInspector, the package's tests): the Store keeps its
 * client private, and no public entry hands it out.
 */
const runners = new WeakMap<object, QueryRunner>();

export function registerStoreRunner(store: object, runner: QueryRunner): void {
  runners.set(store, runner);
}

export function storeRunner(store: object): QueryRunner {
  const runner = runners.get(store);
  if (runner === undefined) throw new TypeError('not a Store opened by this package');
  return runner;
}

/** The store's connection — for the package's own tests only. */
export function clientOf(store: object): ClickHouseClient {
  return storeRunner(store).client;
}
