/**
 * Test and benchmark support for `@telltale/store`: named reads of what a
 * store holds (StoreInspector). Not for the product.
 */
export { StoreInspector, INSPECTED_TABLES } from './StoreInspector.js';
export type { InspectedTable, QuantilesFunction, TableSize, ColumnSize } from './StoreInspector.js';
export { runFilterOf } from '../runs/runFilterOf.js';
export { nanosToDateTime64 } from '../time.js';
export { EMPTY_PRICE_TABLE } from '../analytics/AnalyticsFilter.js';
export { toSpanInsertRow } from '../spans/spanRow.js';
export type { SpanInsertRow } from '../spans/spanRow.js';
export { makeSpan } from './makeSpan.js';
